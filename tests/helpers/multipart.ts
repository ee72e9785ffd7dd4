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

/** The boundary of `multipartText`'s bodies. */
export const TEXT_BOUNDARY = 'bicielis-prova-0123456789';

/** A multipart/form-data body of text fields only, built at once (for tables of requests). */
export function multipartText(fields: Record<string, string>): { payload: string; headers: Record<string, string> } {
  const parts = Object.entries(fields).map(([k, v]) => `--${TEXT_BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { payload: `${parts.join('')}--${TEXT_BOUNDARY}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${TEXT_BOUNDARY}` } };
}
