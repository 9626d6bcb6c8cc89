import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goJsonSyntaxError } from './go-json-syntax.ts';

test('text that is not JSON gets the message Go\'s encoding/json gives for it', () => {
  const cases: [string, string][] = [
    ['', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a": "b', 'unexpected end of JSON input'],
    ['{"a":}', "invalid character '}' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', 'invalid character \'"\' after object key:value pair'],
    ['[1 2]', "invalid character '2' after array element"],
    ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
    ['xx', "invalid character 'x' looking for beginning of value"],
    ['{"a":1}x', "invalid character 'x' after top-level value"],
    ['{"a":1},', "invalid character ',' after top-level value"],
    ['01', "invalid character '1' after top-level value"],
    ['tru', "invalid character ' ' in literal true (expecting 'e')"],
    ['[trie]', "invalid character 'i' in literal true (expecting 'u')"],
    ['nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['fals3', "invalid character '3' in literal false (expecting 'e')"],
    ['"a\\qb"', "invalid character 'q' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"a\tb"', "invalid character '\\t' in string literal"],
    ['"a\u0001b"', "invalid character '\\x01' in string literal"],
    ['-', "invalid character ' ' in numeric literal"],
    ['-x', "invalid character 'x' in numeric literal"],
    ['1.', "invalid character ' ' after decimal point in numeric literal"],
    ['1.e5', "invalid character 'e' after decimal point in numeric literal"],
    ['1e', "invalid character ' ' in exponent of numeric literal"],
    ['1e+', "invalid character ' ' in exponent of numeric literal"],
    ['{"a":é}', "invalid character 'Ã' looking for beginning of value"],
    ['{"a":\u00a0}', "invalid character 'Â' looking for beginning of value"],
    ['[1,]', "invalid character ']' looking for beginning of value"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['\\', "invalid character '\\\\' looking for beginning of value"],
    ['\u007f', "invalid character '\\x7f' looking for beginning of value"],
  ];
  for (const [text, message] of cases) assert.equal(goJsonSyntaxError(text), message, JSON.stringify(text));
});

test('valid JSON has no error, and nesting past the limit is the scanner\'s "exceeded max depth"', () => {
  for (const text of ['{}', '[]', ' {"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n"]} ', '0', '"x"', '-0.1E-2']) assert.equal(goJsonSyntaxError(text), undefined, text);
  assert.equal(goJsonSyntaxError('[[[1]]]', 3), undefined);
  assert.equal(goJsonSyntaxError('[[[[1]]]]', 3), "invalid character '[' exceeded max depth");
  assert.equal(goJsonSyntaxError('[{"a":{}}]', 2), "invalid character '{' exceeded max depth");
  // The first error in the text wins, as the scanner stops there.
  assert.equal(goJsonSyntaxError('[x, [[[[1]]]]]', 3), "invalid character 'x' looking for beginning of value");
});
