import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runText } from './shell-text.ts';

const files: Record<string, string> = { '/input/data.txt': 'qux\n', '/index': '3', '/log': 'GET /a 200\nPOST /b 500\nget /c 404\n' };
const input = (stdin?: string) => ({ stdin, read: (path: string) => (path in files ? Buffer.from(files[path] as string) : { error: 'No such file or directory' }) });

test('rev reverses each line and keeps its newline; a last line without one stays without (busybox strrev)', () => {
  assert.deepEqual(runText('rev', ['/input/data.txt'], input()), { out: 'xuq\n', status: 0 });
  assert.deepEqual(runText('rev', ['/index'], input()), { out: '3', status: 0 });
  assert.deepEqual(runText('rev', [], input('ab\n\ncd')), { out: 'ba\n\ndc', status: 0 });
  assert.deepEqual(runText('rev', ['/nope'], input()), { out: '', err: 'rev: /nope: No such file or directory\n', status: 1 });
});

test('grep selects lines by a basic or extended regular expression; -i -v -c -n -q -w -x -F; status 0, 1 for none, 2 for an unreadable file', () => {
  assert.deepEqual(runText('grep', ['500', '/log'], input()), { out: 'POST /b 500\n', status: 0 });
  assert.deepEqual(runText('grep', ['-i', 'get'], input(files['/log'])), { out: 'GET /a 200\nget /c 404\n', status: 0 });
  assert.deepEqual(runText('grep', ['-vc', 'GET'], input(files['/log'])), { out: '2\n', status: 0 });
  assert.deepEqual(runText('grep', ['-n', '40[0-9]'], input(files['/log'])), { out: '3:get /c 404\n', status: 0 });
  assert.deepEqual(runText('grep', ['-E', '(GET|POST) /[ab]'], input(files['/log'])), { out: 'GET /a 200\nPOST /b 500\n', status: 0 });
  assert.deepEqual(runText('grep', ['\\(GET\\|POST\\) /a'], input(files['/log'])), { out: 'GET /a 200\n', status: 0 });
  assert.deepEqual(runText('grep', ['a+'], input('a+\naa\n')), { out: 'a+\n', status: 0 }, 'a basic expression\'s + is literal');
  assert.deepEqual(runText('grep', ['-w', 'ge'], input('get\nge t\n')), { out: 'ge t\n', status: 0 });
  assert.deepEqual(runText('grep', ['-q', 'x'], input('a\n')), { out: '', status: 1 });
  assert.deepEqual(runText('grep', ['get', '/log', '/nope'], input()), { out: '/log:get /c 404\n', err: 'grep: /nope: No such file or directory\n', status: 2 });
});

test('wc prints one bare count of one input, else %9 columns; a total for several files', () => {
  assert.deepEqual(runText('wc', ['-l'], input('a\nb\n')), { out: '2\n', status: 0 });
  assert.deepEqual(runText('wc', ['-l', '/log'], input()), { out: '3 /log\n', status: 0 });
  assert.deepEqual(runText('wc', [], input('one two\nthree\n')), { out: '        2         3        14\n', status: 0 });
  assert.deepEqual(runText('wc', ['-l', '/log', '/input/data.txt'], input()), { out: '        3 /log\n        1 /input/data.txt\n        4 total\n', status: 0 });
});

test('head, sort and tr', () => {
  assert.deepEqual(runText('head', ['-n', '1'], input('a\nb\n')), { out: 'a\n', status: 0 });
  assert.deepEqual(runText('head', ['-2', '/log'], input()), { out: 'GET /a 200\nPOST /b 500\n', status: 0 });
  assert.deepEqual(runText('sort', [], input('b\nB\na\n')), { out: 'B\na\nb\n', status: 0 }, 'bytewise, as in the C locale');
  assert.deepEqual(runText('sort', ['-rn'], input('2\n10\n1\n')), { out: '10\n2\n1\n', status: 0 });
  assert.deepEqual(runText('sort', ['-u'], input('b\na\nb\n')), { out: 'a\nb\n', status: 0 });
  assert.deepEqual(runText('tr', ['a-z', 'A-Z'], input('hi there\n')), { out: 'HI THERE\n', status: 0 });
  assert.deepEqual(runText('tr', ['-d', '\\n'], input('a\nb\n')), { out: 'ab', status: 0 });
  assert.deepEqual(runText('tr', ['[:lower:]', '_'], input('aB\n')), { out: '_B\n', status: 0 });
});

test("a command line outside the filters (as kubectl exec may run one) says what is missing or not simulated; grep's status for trouble is 2", () => {
  assert.deepEqual(runText('grep', [], input('a\n')), { out: '', err: 'grep: a pattern is needed\n', status: 2 });
  assert.deepEqual(runText('sort', ['/log'], input()), { out: '', err: 'sort: sorting a file is not simulated\n', status: 1 });
  assert.deepEqual(runText('wc', ['-l'], input()), { out: '', err: 'wc: reading standard input is not simulated\n', status: 1 });
  assert.deepEqual(runText('tr', ['a'], input('a\n')), { out: '', err: 'tr: two sets are needed\n', status: 1 });
});
