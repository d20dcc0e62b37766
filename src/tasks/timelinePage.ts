// The timeline panel's page: a strict Content-Security-Policy (nothing but the panel's own style and its one script,
// by nonce; no network), the script and style from the extension's media folder. No `vscode` import.

export interface TimelinePageInput {
  /** The webview's `cspSource`: where its own resources are served from. */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  nonce: string;
  lang: string;
  title: string;
  /** Shown until the script has drawn the first data. */
  loading: string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The policy: nothing by default; styles from the webview's source; the one script with the nonce. */
export function timelineCsp(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `style-src ${cspSource}`, `script-src 'nonce-${nonce}'`].join('; ');
}

export function timelineHtml(page: TimelinePageInput): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(page.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(timelineCsp(page.cspSource, page.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(page.styleUri)}">
<title>${escapeHtml(page.title)}</title>
</head>
<body>
<main id="root"><p>${escapeHtml(page.loading)}</p></main>
<script nonce="${escapeHtml(page.nonce)}" src="${escapeHtml(page.scriptUri)}"></script>
</body>
</html>
`;
}
