// Go's path.Clean for a rooted path: the shortest equivalent, `.` and `..` resolved, never above `/`.
// Upstream: Go's path package (path.Clean, path.Join's cleaning).

export function cleanRootedPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}
