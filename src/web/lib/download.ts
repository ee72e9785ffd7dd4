/**
 * The file name a `Content-Disposition` header gives (RFC 6266: `filename*` first, then
 * `filename`, quoted or not), else `fallback`. Never a path: slashes become `_`.
 */
export function fileNameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  let name: string | undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) {
    try {
      name = decodeURIComponent(star[1]!.trim());
    } catch {
      name = undefined;
    }
  }
  name ??= /filename\s*=\s*"([^"]*)"/.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/.exec(header)?.[1];
  const clean = name?.replace(/[/\\]/g, '_').trim();
  return clean ? clean : fallback;
}

/** Saves a fetched file under the name its server gave, else `fallback`; returns the name used. */
export async function saveResponseAsFile(res: Response, fallback: string): Promise<string> {
  const name = fileNameFromDisposition(res.headers.get('Content-Disposition'), fallback);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return name;
}
