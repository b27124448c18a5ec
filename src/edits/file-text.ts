// A file's text as lines with their own line ends, so edits keep CRLF, mixed endings and a
// missing final newline exactly as the file has them.

/** A file split into lines; `eols[i]` is line i's terminator ('\n', '\r\n', or '' for a last line without one). */
export interface FileText {
  lines: string[];
  eols: string[];
}

/** Split file content into lines and their terminators. */
export function splitFileText(content: string): FileText {
  const lines: string[] = [];
  const eols: string[] = [];
  let at = 0;
  while (at < content.length) {
    const nl = content.indexOf('\n', at);
    if (nl < 0) {
      lines.push(content.slice(at));
      eols.push('');
      break;
    }
    const cr = nl > at && content[nl - 1] === '\r';
    lines.push(content.slice(at, cr ? nl - 1 : nl));
    eols.push(cr ? '\r\n' : '\n');
    at = nl + 1;
  }
  return { lines, eols };
}

/** The content of a FileText. */
export function joinFileText(text: FileText): string {
  let out = '';
  for (let i = 0; i < text.lines.length; i++) out += text.lines[i]! + text.eols[i]!;
  return out;
}

/** The line end most lines of the file use ('\n' for a file with none). */
export function dominantEol(text: FileText): string {
  let crlf = 0;
  let lf = 0;
  for (const e of text.eols) {
    if (e === '\r\n') crlf++;
    else if (e === '\n') lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** True when the file's last line ends with a line end (or the file is empty). */
export function hasFinalNewline(text: FileText): boolean {
  return text.eols.length === 0 || text.eols.at(-1) !== '';
}

/** A line compared loosely: no trailing CR, no leading or trailing whitespace, inner runs of whitespace as one space. */
export function looseLine(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}
