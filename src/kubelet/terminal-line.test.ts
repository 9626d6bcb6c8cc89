import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTerminal } from './terminal-line.ts';

test('typed characters are echoed until CR ends the line; what follows waits for the next read', () => {
  assert.deepEqual(readTerminal('env\rexit\r', '', '# '), { echo: 'env\n', line: 'env', rest: 'exit\r', partial: '' });
  assert.deepEqual(readTerminal('nvid', '', '# '), { echo: 'nvid', rest: '', partial: 'nvid' });
  assert.deepEqual(readTerminal('ia-smi -L\n', 'nvid', '# '), { echo: 'ia-smi -L\n', line: 'nvidia-smi -L', rest: '', partial: '' });
});

test('DEL erases, ^C drops the line and prompts again, ^D ends input only on an empty line', () => {
  assert.deepEqual(readTerminal('ecx\x7fho\r', '', '# '), { echo: 'ecx\b \bho\n', line: 'echo', rest: '', partial: '' });
  assert.deepEqual(readTerminal('\x7f', '', '# '), { echo: '', rest: '', partial: '' });
  assert.deepEqual(readTerminal('sleep 9\x03', '', '# '), { echo: 'sleep 9^C\n# ', rest: '', partial: '' });
  assert.deepEqual(readTerminal('ls\x04', '', '# '), { echo: 'ls', rest: '', partial: 'ls' });
  assert.deepEqual(readTerminal('\x04more', '', '# '), { echo: 'exit\n', line: null, rest: 'more', partial: '' });
});
