/** A file of a multipart form: `foto` unless named otherwise. */
export interface FormFile {
  name?: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body (the platform's FormData, encoded by Response) for `app.inject`. */
export async function formBody(fields: Record<string, string>, files: FormFile[] = []): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append(f.name ?? 'foto', new Blob([new Uint8Array(f.data)], { type: f.type }), f.filename);
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
}
