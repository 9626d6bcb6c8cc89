// A terminal's canonical mode as the tty driver runs it for a shell: what is typed is echoed, DEL or
// BS erases, ^C drops the line (and the shell prompts again), ^D on an empty line ends the input,
// CR or LF ends a line. kubectl -t puts the user's terminal in raw mode and leaves this to the remote
// end; a simulated container has no tty driver, so exec-stream.ts runs this one. Pure.

export interface TerminalRead {
  /** What the terminal echoes for the characters read. */
  echo: string;
  /** The finished line, `null` at the end of input, undefined while the line goes on. */
  line?: string | null;
  /** The characters after what was read, and the unfinished line. */
  rest: string;
  partial: string;
}

/** Reads `typed` onto the unfinished `partial` line, up to the end of a line or of the input. */
export function readTerminal(typed: string, partial: string, prompt: string): TerminalRead {
  let echo = '';
  let line = partial;
  for (let i = 0; i < typed.length; i++) {
    const ch = typed[i] as string;
    const rest = (): string => typed.slice(i + 1);
    if (ch === '\r' || ch === '\n') return { echo: `${echo}\n`, line, rest: rest(), partial: '' };
    if (ch === '\x7f' || ch === '\b') {
      if (line.length > 0) {
        line = line.slice(0, -1);
        echo += '\b \b';
      }
    } else if (ch === '\x03') {
      echo += `^C\n${prompt}`;
      line = '';
    } else if (ch === '\x04') {
      if (line === '') return { echo: `${echo}exit\n`, line: null, rest: rest(), partial: '' };
    } else if (ch >= ' ' || ch === '\t') {
      line += ch;
      echo += ch;
    }
  }
  return { echo, rest: '', partial: line };
}
