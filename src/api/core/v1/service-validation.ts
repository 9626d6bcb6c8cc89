// Service validation: ports, type-dependent fields, session affinity, cluster IPs and traffic policies.
// Upstream: pkg/apis/core/validation/validation.go (ValidateService, validateServicePort,
// ValidateServiceClusterIPsRelatedFields, validateUpgradeDowngradeClusterIPs, ValidateServiceStatusUpdate).
import { FieldPath, duplicate, forbiddenField, invalidValue, notSupported, required } from '../../../core/index.ts';
import type { FieldError } from '../../../core/index.ts';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidPortName, isValidPortNum, nameIsDNS1035Label, validateLabels } from '../../validation/names.ts';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../validation/object-meta.ts';
import { isExternallyAccessible, isHeadless } from './service-types.ts';
import type { Service, ServicePort } from './service-types.ts';

const spec = FieldPath.root('spec');
const supportedTypes = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const supportedAffinity = ['ClientIP', 'None'];
const supportedProtocols = ['SCTP', 'TCP', 'UDP'];
const supportedPolicies = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const supportedFamilies = ['IPv4', 'IPv6'];
const trafficPolicies = ['Cluster', 'Local'];
export const maxClientIPServiceAffinitySeconds = 86400;
export const invalidIPMessage = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
export const isIPv4 = (value: string): boolean => ipv4.test(value);
export function isIP(value: string): boolean {
  if (isIPv4(value)) return true;
  // IPv6: let URL parsing decide, it accepts exactly the RFC 4291 text forms.
  if (!value.includes(':') || value.includes('%') || value.includes('[')) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 0;
  } catch {
    return false;
  }
}

function validateServicePort(p: ServicePort, requireName: boolean, names: Set<string>, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = p.name ?? '';
  if (requireName && name === '') errs.push(required(path.child('name')));
  else if (name !== '') {
    for (const msg of isDNS1123Label(name)) errs.push(invalidValue(path.child('name'), name, msg));
    if (names.has(name)) errs.push(duplicate(path.child('name'), name));
    else names.add(name);
  }
  for (const msg of isValidPortNum(p.port)) errs.push(invalidValue(path.child('port'), p.port, msg));
  if (!p.protocol) errs.push(required(path.child('protocol')));
  else if (!supportedProtocols.includes(p.protocol)) errs.push(notSupported(path.child('protocol'), p.protocol, supportedProtocols));
  const target = p.targetPort ?? 0;
  if (typeof target === 'number') for (const msg of isValidPortNum(target)) errs.push(invalidValue(path.child('targetPort'), target, msg));
  else for (const msg of isValidPortName(target)) errs.push(invalidValue(path.child('targetPort'), target, msg));
  if (p.appProtocol !== undefined) for (const msg of isQualifiedName(p.appProtocol)) errs.push(invalidValue(path.child('appProtocol'), p.appProtocol, msg));
  return errs;
}

function validateClusterIPsRelatedFields(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const s = svc.spec ?? {};
  if (s.ipFamilyPolicy !== undefined && !supportedPolicies.includes(s.ipFamilyPolicy)) {
    errs.push(notSupported(spec.child('ipFamilyPolicy'), s.ipFamilyPolicy, supportedPolicies));
  }
  (s.ipFamilies ?? []).forEach((f, i) => {
    if (!supportedFamilies.includes(f)) errs.push(notSupported(spec.child('ipFamilies').index(i), f, supportedFamilies));
  });
  const ips = s.clusterIPs ?? [];
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) errs.push(invalidValue(spec.child('clusterIPs'), ips, "'None' must be the first and only value"));
      return;
    }
    if (!isIP(ip)) errs.push(invalidValue(spec.child('clusterIPs').index(i), ip, invalidIPMessage));
  });
  return errs;
}

function validateAffinity(svc: Service): FieldError[] {
  const s = svc.spec ?? {};
  const path = spec.child('sessionAffinityConfig');
  if (!s.sessionAffinity) return [required(spec.child('sessionAffinity'))];
  if (!supportedAffinity.includes(s.sessionAffinity)) return [notSupported(spec.child('sessionAffinity'), s.sessionAffinity, supportedAffinity)];
  if (s.sessionAffinity === 'None') {
    return s.sessionAffinityConfig ? [forbiddenField(path, 'must not be set when session affinity is None')] : [];
  }
  const when = 'when session affinity type is ClientIP';
  if (!s.sessionAffinityConfig) return [required(path, when)];
  if (!s.sessionAffinityConfig.clientIP) return [required(path.child('clientIP'), when)];
  const timeout = s.sessionAffinityConfig.clientIP.timeoutSeconds;
  const tp = path.child('clientIP').child('timeoutSeconds');
  if (timeout === undefined) return [required(tp, when)];
  if (timeout <= 0 || timeout > maxClientIPServiceAffinitySeconds) {
    return [invalidValue(tp, timeout, `must be greater than 0 and less than ${maxClientIPServiceAffinitySeconds}`)];
  }
  return [];
}

function validateTrafficPolicies(svc: Service): FieldError[] {
  const errs: FieldError[] = [];
  const s = svc.spec ?? {};
  const etp = s.externalTrafficPolicy;
  if (!isExternallyAccessible(svc)) {
    if (etp) errs.push(invalidValue(spec.child('externalTrafficPolicy'), etp, 'may only be set for externally-accessible services'));
  } else if (!etp) errs.push(required(spec.child('externalTrafficPolicy')));
  else if (!trafficPolicies.includes(etp)) errs.push(notSupported(spec.child('externalTrafficPolicy'), etp, trafficPolicies));
  const itp = s.internalTrafficPolicy;
  // Not forbidden on other types: stored objects predate the check.
  if (!itp && (s.type === 'ClusterIP' || s.type === 'NodePort' || s.type === 'LoadBalancer')) errs.push(required(spec.child('internalTrafficPolicy')));
  if (itp && !trafficPolicies.includes(itp)) errs.push(notSupported(spec.child('internalTrafficPolicy'), itp, trafficPolicies));
  return errs;
}

export function validateService(svc: Service): FieldError[] {
  const errs = validateObjectMeta(svc.metadata, { namespaced: true, nameValidator: nameIsDNS1035Label });
  const s = svc.spec ?? {};
  const ports = s.ports ?? [];
  if (ports.length === 0 && !isHeadless(svc) && s.type !== 'ExternalName') errs.push(required(spec.child('ports')));
  const first = s.clusterIPs?.[0] ?? '';
  if (s.type === 'LoadBalancer' && isHeadless(svc)) errs.push(invalidValue(spec.child('clusterIPs').index(0), first, "may not be set to 'None' for LoadBalancer services"));
  if (s.type === 'NodePort' && isHeadless(svc)) errs.push(invalidValue(spec.child('clusterIPs').index(0), first, "may not be set to 'None' for NodePort services"));
  if (s.type === 'ExternalName') {
    if ((s.clusterIPs ?? []).length > 0) errs.push(forbiddenField(spec.child('clusterIPs'), 'may not be set for ExternalName services'));
    if ((s.ipFamilies ?? []).length > 0) errs.push(forbiddenField(spec.child('ipFamilies'), 'may not be set for ExternalName services'));
    if (s.ipFamilyPolicy !== undefined) errs.push(forbiddenField(spec.child('ipFamilyPolicy'), 'may not be set for ExternalName services'));
    // A CNAME may end in a dot to mark it fully qualified.
    const cname = (s.externalName ?? '').replace(/\.$/, '');
    if (cname) for (const msg of isDNS1123Subdomain(cname)) errs.push(invalidValue(spec.child('externalName'), cname, msg));
    else errs.push(required(spec.child('externalName')));
  }
  const names = new Set<string>();
  ports.forEach((p, i) => errs.push(...validateServicePort(p, ports.length > 1, names, spec.child('ports').index(i))));
  if (s.selector) errs.push(...validateLabels(s.selector, spec.child('selector')));
  errs.push(...validateAffinity(svc));
  errs.push(...validateClusterIPsRelatedFields(svc));
  (s.externalIPs ?? []).forEach((ip, i) => {
    if (!isIP(ip)) errs.push(invalidValue(spec.child('externalIPs').index(i), ip, invalidIPMessage));
  });
  if (!s.type) errs.push(required(spec.child('type')));
  else if (!supportedTypes.includes(s.type)) errs.push(notSupported(spec.child('type'), s.type, supportedTypes));
  if (s.type === 'ClusterIP') {
    ports.forEach((p, i) => {
      if (p.nodePort) errs.push(forbiddenField(spec.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  const portKeys = new Set<string>();
  ports.forEach((p, i) => {
    const path = spec.child('ports').index(i);
    if (p.nodePort) {
      const k = `${p.protocol ?? ''}/${p.nodePort}`;
      if (nodePorts.has(k)) errs.push(duplicate(path.child('nodePort'), p.nodePort));
      nodePorts.add(k);
    }
    const k = `${p.protocol ?? ''}/${p.port}`;
    // The bad value is the internal ServicePort key, which has no json tags upstream.
    if (portKeys.has(k)) errs.push(duplicate(path, { Name: '', Protocol: p.protocol ?? '', AppProtocol: null, Port: p.port, TargetPort: 0, NodePort: 0 }));
    portKeys.add(k);
  });
  errs.push(...validateTrafficPolicies(svc));
  return errs;
}

/** validateUpgradeDowngradeClusterIPs: IPs and the primary family are fixed once set, ExternalName aside. */
function validateClusterIPChanges(svc: Service, old: Service): FieldError[] {
  if (svc.spec?.type === 'ExternalName' || old.spec?.type === 'ExternalName') return [];
  if (isHeadless(svc) && isHeadless(old)) return [];
  const errs: FieldError[] = [];
  const now = svc.spec?.clusterIPs ?? [];
  const before = old.spec?.clusterIPs ?? [];
  const common = Math.min(now.length, before.length);
  for (let i = 0; i < (now.length === before.length ? before.length : Math.min(common, 1)); i++) {
    if (before[i] !== now[i]) errs.push(invalidValue(spec.child('clusterIPs').index(i), now, 'may not change once set'));
  }
  const famNow = svc.spec?.ipFamilies ?? [];
  const famBefore = old.spec?.ipFamilies ?? [];
  if (famBefore.length > 0 && famNow.length > 0 && famBefore[0] !== famNow[0]) {
    errs.push(invalidValue(spec.child('ipFamilies').index(0), famNow, 'may not change once set'));
  }
  return errs;
}

export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  return [...validateObjectMetaUpdate(svc.metadata, old.metadata), ...validateClusterIPChanges(svc, old), ...validateService(svc)];
}

export function validateServiceStatusUpdate(svc: Service, old: Service): FieldError[] {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata);
  const ingressPath = FieldPath.root('status').child('loadBalancer').child('ingress');
  (svc.status?.loadBalancer?.ingress ?? []).forEach((ing, i) => {
    if (ing.ip !== undefined && !isIP(ing.ip)) errs.push(invalidValue(ingressPath.index(i).child('ip'), ing.ip, invalidIPMessage));
  });
  return errs;
}
