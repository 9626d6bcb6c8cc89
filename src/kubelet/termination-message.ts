// An exited container's termination message, as the runtime manager reads it into the status.
import type { Container } from '../api/index.ts';
import { terminationMessageFromLogs } from './logs.ts';
import type { LogBuffer } from './logs.ts';
import type { ContainerExit } from './sim-container.ts';

/**
 * The termination message the runtime manager adds to an exited container's status: the end (4 KiB) of the
 * file at terminationMessagePath, or, with FallbackToLogsOnError, a failure and an empty file, the end of its
 * logs; after the runtime's own message.
 * Upstream: pkg/kubelet/kuberuntime/kuberuntime_container.go (getTerminationMessage, toKubeContainerStatus).
 */
export function withTerminationMessage(exit: ContainerExit, c: Readonly<Container> | undefined, file: Buffer | undefined, logs: LogBuffer | undefined): ContainerExit {
  const fromFile = file && file.length > 0 ? file.subarray(Math.max(0, file.length - maxContainerTerminationMessageBytes)).toString('utf8') : '';
  const fallbackToLogs = c?.terminationMessagePolicy === 'FallbackToLogsOnError' && exit.exitCode !== 0;
  const message = fromFile === '' && fallbackToLogs && logs ? terminationMessageFromLogs(logs.lines()) : fromFile;
  if (message === '') return exit;
  return { ...exit, message: exit.message ? `${exit.message}: ${message}` : message };
}

/** kubecontainer.MaxContainerTerminationMessageLength: what is read of a termination log, from its end. */
const maxContainerTerminationMessageBytes = 4096;
