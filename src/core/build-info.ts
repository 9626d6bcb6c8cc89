// What a simulated Kubernetes binary says of its build (the API server's /version, a kubelet's
// kubernetes_build_info) beside the version it plays: fixed values where a real build has its own.
export const simulatedBuild = {
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.25.0',
  compiler: 'gc',
  platform: 'linux/amd64',
} as const;
