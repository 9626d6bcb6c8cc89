"""Smoke test of Debian's python3-kubernetes against drydock up: prints one JSON document of results.

Usage: /usr/bin/python3 smoke.py KUBECONFIG
"""
import json
import re
import sys
import time

from kubernetes import client, config, watch
from kubernetes.stream import portforward, stream


def main(kubeconfig):
    config.load_kube_config(config_file=kubeconfig)
    v1 = client.CoreV1Api()
    out = {}
    out["namespaces"] = sorted(n.metadata.name for n in v1.list_namespace().items)
    # The client's models reject a node without every required nodeInfo field (kubeProxyVersion too).
    out["nodes"] = [[n.metadata.name, n.status.node_info.kubelet_version, n.status.node_info.kube_proxy_version] for n in v1.list_node().items]

    listed = v1.list_namespaced_pod("default")
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "py-pod", "labels": {"app": "py"}},
        "spec": {"containers": [{"name": "c", "image": "nginx"}]},
    }
    created = v1.create_namespaced_pod("default", pod)
    out["created"] = created.metadata.name
    out["restartPolicy"] = created.spec.restart_policy
    events = []
    w = watch.Watch()
    for event in w.stream(v1.list_namespaced_pod, "default", resource_version=listed.metadata.resource_version, timeout_seconds=10):
        events.append([event["type"], event["object"].metadata.name])
        if event["object"].metadata.name == "py-pod":
            w.stop()
    out["events"] = events

    v1.create_namespaced_config_map("default", {"metadata": {"name": "py-settings"}, "data": {"mode": "fast"}})
    patched = v1.patch_namespaced_config_map("py-settings", "default", {"data": {"mode": "slow"}, "metadata": {"labels": {"team": "ml"}}})
    out["patched"] = {"data": patched.data, "labels": patched.metadata.labels}
    # A ReplicaSet at zero replicas (as every rollout leaves one) still reads status.replicas, which the models require.
    apps = client.AppsV1Api()
    apps.create_namespaced_replica_set("default", {
        "metadata": {"name": "py-idle"},
        "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "idle"}}, "template": {"metadata": {"labels": {"app": "idle"}}, "spec": {"containers": [{"name": "c", "image": "nginx"}]}}},
    })
    out["replicaSets"] = [[rs.metadata.name, rs.status.replicas] for rs in apps.list_namespaced_replica_set("default").items]
    # So does a new autoscaling/v1 HorizontalPodAutoscaler its currentReplicas.
    hpa = client.AutoscalingV1Api()
    hpa.create_namespaced_horizontal_pod_autoscaler("default", {
        "metadata": {"name": "py-hpa"},
        "spec": {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "absent"}, "maxReplicas": 3},
    })
    out["autoscalers"] = [[h.metadata.name, h.status.current_replicas, h.status.desired_replicas] for h in hpa.list_namespaced_horizontal_pod_autoscaler("default").items]
    # Exec over the client's WebSocket (v4.channel.k8s.io): the output, then the exit code from the error channel.
    for _ in range(100):
        if v1.read_namespaced_pod("py-pod", "default").status.phase == "Running":
            break
        time.sleep(0.1)
    resp = stream(v1.connect_get_namespaced_pod_exec, "py-pod", "default", command=["sh", "-c", "echo $HOSTNAME; exit 3"],
                  stderr=True, stdin=False, stdout=True, tty=False, _preload_content=False)
    resp.run_forever(timeout=10)
    out["exec"] = [resp.read_stdout(), resp.returncode]
    # The node proxy to the kubelet, its path URL-encoded by the client (stats%2Fsummary); the client hands back the text.
    out["kubeletHealth"] = v1.connect_get_node_proxy_with_path("cpu-0", "healthz")
    out["summaryPods"] = sorted(p["podRef"]["name"] for p in json.loads(v1.connect_get_node_proxy_with_path("cpu-0", "stats/summary", _preload_content=False).data)["pods"])
    # Port forwarding over the kubelet's WebSocket channels: nothing listens in a simulated container.
    pf = portforward(v1.connect_get_namespaced_pod_portforward, "py-pod", "default", ports="80")
    for _ in range(100):
        if pf.error(80):
            break
        time.sleep(0.1)
    out["portForward"] = re.sub(r"cni-[0-9a-f-]{36}", "cni-ID", re.sub(r"[0-9a-f]{64}", "SANDBOX", pf.error(80) or ""))
    try:
        v1.read_namespaced_config_map("missing", "default")
    except client.exceptions.ApiException as e:
        out["missing"] = [e.status, json.loads(e.body)["message"]]
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
