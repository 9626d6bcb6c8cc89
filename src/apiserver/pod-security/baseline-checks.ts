// The checks of the baseline Pod Security Standard, with upstream's reasons and details word for word.
// Upstream: staging/src/k8s.io/pod-security-admission/policy/check_{appArmorProfile,capabilities_baseline,
// hostNamespaces,hostPathVolumes,hostPorts,hostProbesAndhostLifecycle,privileged,procMount_baseline,
// seLinuxOptions,seccompProfile_baseline,sysctls,windowsHostProcess}.go (1.35).
import type { Container, LifecycleHandler, PodSpec, Probe, SELinuxOptions } from '../../api/index.ts';
import type { Check, CheckPod, Violation } from './check.ts';
import { allContainers, containersPhrase, containersWhere, inUserNamespace, joinQuote, pluralize, sortedSet } from './check.ts';

const appArmorAnnotationPrefix = 'container.apparmor.security.beta.kubernetes.io/';
const isAllowedAppArmorType = (type: string | undefined): boolean => type === 'RuntimeDefault' || type === 'Localhost';
const isAllowedAppArmorAnnotation = (value: string): boolean => value === '' || value === 'runtime/default' || value.startsWith('localhost/');

const appArmorProfile: CheckPod = (meta, spec) => {
  const setters: string[] = [];
  const types: string[] = [];
  const podProfile = spec.securityContext?.appArmorProfile;
  if (podProfile && !isAllowedAppArmorType(podProfile.type)) {
    setters.push('pod');
    types.push(podProfile.type ?? '');
  }
  const containers = containersWhere(spec, (c) => {
    const profile = c.securityContext?.appArmorProfile;
    if (!profile || isAllowedAppArmorType(profile.type)) return false;
    types.push(profile.type ?? '');
    return true;
  });
  if (containers.length > 0) setters.push(containersPhrase(containers));
  const annotations: string[] = [];
  for (const [key, value] of Object.entries(meta.annotations ?? {})) {
    if (key.startsWith(appArmorAnnotationPrefix) && !isAllowedAppArmorAnnotation(value)) annotations.push(`${key}=${JSON.stringify(value)}`);
  }
  const values = [...sortedSet(types), ...annotations.sort()];
  if (annotations.length > 0) setters.push(pluralize('annotation', 'annotations', annotations.length));
  if (setters.length === 0) return undefined;
  return { reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length), detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}` };
};

const defaultCapabilities = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

const capabilitiesBaseline: CheckPod = (_meta, spec) => {
  const added: string[] = [];
  const containers = containersWhere(spec, (c) => {
    const extra = (c.securityContext?.capabilities?.add ?? []).filter((cap) => !defaultCapabilities.has(cap));
    added.push(...extra);
    return extra.length > 0;
  });
  if (containers.length === 0) return undefined;
  return { reason: 'non-default capabilities', detail: `${containersPhrase(containers)} must not include ${joinQuote(sortedSet(added))} in securityContext.capabilities.add` };
};

const hostNamespaces: CheckPod = (_meta, spec) => {
  const used: string[] = [];
  if (spec.hostNetwork) used.push('hostNetwork=true');
  if (spec.hostPID) used.push('hostPID=true');
  if (spec.hostIPC) used.push('hostIPC=true');
  return used.length === 0 ? undefined : { reason: 'host namespaces', detail: used.join(', ') };
};

const hostPathVolumes: CheckPod = (_meta, spec) => {
  const names = (spec.volumes ?? []).filter((v) => v.hostPath).map((v) => v.name);
  return names.length === 0 ? undefined : { reason: 'hostPath volumes', detail: `${pluralize('volume', 'volumes', names.length)} ${joinQuote(names)}` };
};

const hostPorts: CheckPod = (_meta, spec) => {
  const ports: string[] = [];
  const containers = containersWhere(spec, (c) => {
    const used = (c.ports ?? []).filter((p) => p.hostPort).map((p) => String(p.hostPort));
    ports.push(...used);
    return used.length > 0;
  });
  if (containers.length === 0) return undefined;
  const distinct = sortedSet(ports);
  return { reason: 'hostPort', detail: `${containersPhrase(containers)} ${pluralize('uses', 'use', containers.length)} ${pluralize('hostPort', 'hostPorts', distinct.length)} ${distinct.join(', ')}` };
};

const handlerHosts = (h: Readonly<Probe> | Readonly<LifecycleHandler> | undefined): string[] => [h?.httpGet?.host, h?.tcpSocket?.host].filter((host): host is string => !!host);

const hostProbesAndHostLifecycle: CheckPod = (_meta, spec) => {
  const hosts: string[] = [];
  const containers = containersWhere(spec, (c) => {
    const found = [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop].flatMap(handlerHosts);
    hosts.push(...found);
    return found.length > 0;
  });
  if (containers.length === 0) return undefined;
  const names = sortedSet(containers);
  const distinct = sortedSet(hosts);
  return {
    reason: 'probe or lifecycle host',
    detail: `${pluralize('container', 'containers', names.length)} ${joinQuote(names)} ${pluralize('uses', 'use', names.length)} ${pluralize('probe or lifecycle host', 'probe or lifecycle hosts', distinct.length)} ${joinQuote(distinct)}`,
  };
};

const privileged: CheckPod = (_meta, spec) => {
  const containers = containersWhere(spec, (c) => c.securityContext?.privileged === true);
  return containers.length === 0 ? undefined : { reason: 'privileged', detail: `${containersPhrase(containers)} must not set securityContext.privileged=true` };
};

/** Any /proc mount but the default; the restricted level's procMount check, and baseline's before 1.35. */
export const procMountDefaultOnly: CheckPod = (_meta, spec) => {
  const types: string[] = [];
  const containers = containersWhere(spec, (c) => {
    const type = c.securityContext?.procMount;
    if (type === undefined || type === 'Default') return false;
    types.push(type);
    return true;
  });
  return containers.length === 0 ? undefined : { reason: 'procMount', detail: `${containersPhrase(containers)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}` };
};

const procMountBaseline: CheckPod = (meta, spec) => (inUserNamespace(spec) ? undefined : procMountDefaultOnly(meta, spec));

function seLinuxOptions(allowedTypes: ReadonlySet<string>): CheckPod {
  return (_meta, spec) => {
    const types: string[] = [];
    let setsUser = false;
    let setsRole = false;
    const isForbidden = (opts: Readonly<SELinuxOptions> | undefined): boolean => {
      if (!opts) return false;
      const badType = !allowedTypes.has(opts.type ?? '');
      if (badType) types.push(opts.type ?? '');
      setsUser ||= !!opts.user;
      setsRole ||= !!opts.role;
      return badType || !!opts.user || !!opts.role;
    };
    const setters = isForbidden(spec.securityContext?.seLinuxOptions) ? ['pod'] : [];
    const containers = containersWhere(spec, (c) => isForbidden(c.securityContext?.seLinuxOptions));
    if (containers.length > 0) setters.push(containersPhrase(containers));
    if (setters.length === 0) return undefined;
    const distinct = sortedSet(types);
    const data = distinct.length > 0 ? [`${pluralize('type', 'types', distinct.length)} ${joinQuote(distinct)}`] : [];
    if (setsUser) data.push('user may not be set');
    if (setsRole) data.push('role may not be set');
    return { reason: 'seLinuxOptions', detail: `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}` };
  };
}

const seLinuxTypesV1Dot0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
const seLinuxTypesV1Dot31 = new Set([...seLinuxTypesV1Dot0, 'container_engine_t']);

export const isValidSeccompType = (type: string | undefined): boolean => type === 'RuntimeDefault' || type === 'Localhost';

/**
 * The pod and containers that set a seccomp profile type other than RuntimeDefault or Localhost, and
 * the types they set; `unset` names the containers with no profile of their own and no valid one from the pod.
 */
export function seccompSetters(spec: Readonly<PodSpec>): { setters: string[]; types: string[]; unset: string[] } {
  const types: string[] = [];
  const setters: string[] = [];
  const podProfile = spec.securityContext?.seccompProfile;
  if (podProfile && !isValidSeccompType(podProfile.type)) {
    setters.push('pod');
    types.push(podProfile.type);
  }
  const podValid = !!podProfile && isValidSeccompType(podProfile.type);
  const unset: string[] = [];
  const explicit = containersWhere(spec, (c: Readonly<Container>) => {
    const profile = c.securityContext?.seccompProfile;
    if (!profile) {
      if (!podValid) unset.push(c.name);
      return false;
    }
    if (isValidSeccompType(profile.type)) return false;
    types.push(profile.type);
    return true;
  });
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  return { setters, types: sortedSet(types), unset };
}

export function forbiddenSeccompTypes(setters: readonly string[], types: readonly string[]): Violation {
  return { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(types)}` };
}

const seccompProfileBaseline: CheckPod = (_meta, spec) => {
  const { setters, types } = seccompSetters(spec);
  return setters.length === 0 ? undefined : forbiddenSeccompTypes(setters, types);
};

const seccompPodAnnotation = 'seccomp.security.alpha.kubernetes.io/pod';
const seccompContainerAnnotationPrefix = 'container.seccomp.security.alpha.kubernetes.io/';
const isValidSeccompAnnotation = (value: string): boolean => value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');

/** Policies before 1.19 read the alpha seccomp annotations instead of the fields. */
const seccompAnnotationsBaseline: CheckPod = (meta, spec) => {
  const annotations = meta.annotations ?? {};
  const forbidden: string[] = [];
  const inspect = (key: string): void => {
    const value = annotations[key];
    if (value !== undefined && !isValidSeccompAnnotation(value)) forbidden.push(`${key}=${JSON.stringify(value)}`);
  };
  inspect(seccompPodAnnotation);
  for (const c of allContainers(spec)) inspect(seccompContainerAnnotationPrefix + c.name);
  const distinct = sortedSet(forbidden);
  return distinct.length === 0 ? undefined : { reason: 'seccompProfile', detail: `forbidden ${pluralize('annotation', 'annotations', distinct.length)} ${distinct.join(', ')}` };
};

const sysctlsV1Dot0 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_unprivileged_port_start'];
const sysctlsV1Dot27 = [...sysctlsV1Dot0, 'net.ipv4.ip_local_reserved_ports'];
const sysctlsV1Dot29 = [...sysctlsV1Dot27, 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes'];
const sysctlsV1Dot32 = [...sysctlsV1Dot29, 'net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem'];

function sysctls(allowed: readonly string[]): CheckPod {
  const safe = new Set(allowed);
  return (_meta, spec) => {
    const forbidden = (spec.securityContext?.sysctls ?? []).map((s) => s.name).filter((name) => !safe.has(name));
    return forbidden.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: forbidden.join(', ') };
  };
}

const windowsHostProcess: CheckPod = (_meta, spec) => {
  const setters = spec.securityContext?.windowsOptions?.hostProcess === true ? ['pod'] : [];
  const containers = containersWhere(spec, (c) => c.securityContext?.windowsOptions?.hostProcess === true);
  if (containers.length > 0) setters.push(containersPhrase(containers));
  return setters.length === 0 ? undefined : { reason: 'hostProcess', detail: `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true` };
};

const baseline = (id: string, versions: Check['versions']): Check => ({ id, level: 'baseline', versions });

export const baselineChecks: readonly Check[] = [
  baseline('appArmorProfile', [{ min: 0, check: appArmorProfile }]),
  baseline('capabilities_baseline', [{ min: 0, check: capabilitiesBaseline }]),
  baseline('hostNamespaces', [{ min: 0, check: hostNamespaces }]),
  baseline('hostPathVolumes', [{ min: 0, check: hostPathVolumes }]),
  baseline('hostPorts', [{ min: 0, check: hostPorts }]),
  baseline('hostProbesAndHostLifecycle', [{ min: 34, check: hostProbesAndHostLifecycle }]),
  baseline('privileged', [{ min: 0, check: privileged }]),
  // Before 1.35 user namespaces were taken into account only behind an alpha gate, off in most clusters.
  baseline('procMount_baseline', [{ min: 0, check: procMountDefaultOnly }, { min: 35, check: procMountBaseline }]),
  baseline('seLinuxOptions', [{ min: 0, check: seLinuxOptions(seLinuxTypesV1Dot0) }, { min: 31, check: seLinuxOptions(seLinuxTypesV1Dot31) }]),
  baseline('seccompProfile_baseline', [{ min: 0, check: seccompAnnotationsBaseline }, { min: 19, check: seccompProfileBaseline }]),
  baseline('sysctls', [{ min: 0, check: sysctls(sysctlsV1Dot0) }, { min: 27, check: sysctls(sysctlsV1Dot27) }, { min: 29, check: sysctls(sysctlsV1Dot29) }, { min: 32, check: sysctls(sysctlsV1Dot32) }]),
  baseline('windowsHostProcess', [{ min: 0, check: windowsHostProcess }]),
];
