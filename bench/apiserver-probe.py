#!/usr/bin/env python3
"""The floor under the operator's status latency, measured beside it (bench/operator-scale.sh with PROBE=1).

Does what the operator's pass does on a scale event, and nothing else: it watches the Deployments named svc-1 in
every namespace and, when one's replicas rise, sends at once one server-side apply of a ConfigMap the size and shape
of a policy's status (about 6 KB in 150 fields) to the same namespace, on a kept-alive connection, with OpenSSL's
TLS and no JVM. Prints, per event, the namespace, the milliseconds from the watch event's arrival to the apply's
answer, the answer's HTTP status, and the milliseconds until the probe's own watch of its ConfigMaps showed the apply:
the bench times the operator's status the same way, from one watch event to another, so that last figure is the floor
the operator's status figure compares with. The ConfigMaps are made before the first event, so each timed apply is an update. No policy or informer of the operator sees the ConfigMap (it carries none of the operator's labels).

With WRITES=policy-status (PROBE=policy-status in the bench) it writes, instead of the ConfigMap, the status of a
twin of the namespace's policy: an object of a copy of the PoolPolicy CRD under another group (poolpolicyprobes.
probe.poolbudget.io, which the bench makes and no operator watches), with the policy's own spec and, at each event,
the policy's own status as it was at the start (one condition's message carrying a count). That is the operator's
write to the byte, less the operator: the API server's cost of a policy's status, and of its watch, apart from the
operator's path to the write.

Usage: [WRITES=configmap|policy-status] apiserver-probe.py SERVER CA CERT KEY  (stops on SIGTERM; the first line
printed is "listening")
"""
import http.client
import json
import os
import signal
import ssl
import sys
import threading
import time
import urllib.parse

server, ca, cert, key = sys.argv[1:5]
host, port = urllib.parse.urlsplit(server).hostname, urllib.parse.urlsplit(server).port
context = ssl.create_default_context(cafile=ca)
context.load_cert_chain(cert, key)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
NAME = "poolbudget-bench-probe"   # the ConfigMap each namespace gets


def connect(timeout=60):
    return http.client.HTTPSConnection(host, port, context=context, timeout=timeout)


def status_sized(seq):
    # ten targets of fifteen short fields: the field set a policy's status apply carries
    data = {}
    for t in range(10):
        for f in range(15):
            data[f"target-{t}.field-{f}"] = f"value {seq} of field {f} of target {t}"
    return data


class ConfigMaps:
    """What the probe writes by default: a ConfigMap of a status's size and shape."""
    watch = f"/api/v1/configmaps?fieldSelector=metadata.name%3D{NAME}"

    def path(self, namespace):
        return f"/api/v1/namespaces/{namespace}/configmaps/{NAME}"

    def body(self, namespace, n):
        return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": NAME, "namespace": namespace},
                "data": status_sized(n)}

    def count(self, cm):
        return int(cm.get("data", {}).get("target-0.field-0", "value 0").split()[1])


class PolicyStatuses:
    """WRITES=policy-status: the status of each policy's twin (see above), as the operator writes a policy's."""
    group = "probe.poolbudget.io/v1alpha1"
    watch = f"/apis/{group}/poolpolicyprobes"

    def __init__(self):
        lister = connect()
        lister.request("GET", "/apis/poolbudget.io/v1alpha1/poolpolicies")
        self.policies = {p["metadata"]["namespace"]: p for p in json.loads(lister.getresponse().read())["items"]}
        for namespace, policy in self.policies.items():   # the twin, with the policy's spec
            twin = {"apiVersion": self.group, "kind": "PoolPolicyProbe", "spec": policy["spec"],
                    "metadata": {"name": policy["metadata"]["name"], "namespace": namespace}}
            answered = send(self.twin(namespace), twin)
            if answered >= 300:
                sys.exit(f"the twin of the policy in {namespace} was not made: HTTP {answered}")

    def twin(self, namespace):
        return f"/apis/{self.group}/namespaces/{namespace}/poolpolicyprobes/{self.policies[namespace]['metadata']['name']}"

    def path(self, namespace):
        return f"{self.twin(namespace)}/status"

    def body(self, namespace, n):
        policy = self.policies[namespace]
        status = json.loads(json.dumps(policy.get("status") or {}))
        conditions = status.get("conditions") or [{"type": "Probe", "status": "True", "reason": "Probe",
                                                   "lastTransitionTime": "2026-01-01T00:00:00Z"}]
        conditions[0]["message"] = f"probe {n}: {conditions[0].get('message', '')}"
        status["conditions"] = conditions
        return {"apiVersion": self.group, "kind": "PoolPolicyProbe", "status": status,
                "metadata": {"name": policy["metadata"]["name"], "namespace": namespace}}

    def count(self, twin):
        message = ((twin.get("status") or {}).get("conditions") or [{}])[0].get("message", "")
        return int(message.split()[1].rstrip(":")) if message.startswith("probe ") else 0


writer = connect()
seq = 0


def query(path, parameters):
    """path with more query parameters, whether or not it has some already."""
    return f"{path}{'&' if '?' in path else '?'}{parameters}"


def send(path, body):
    """One server-side apply of body (a dict) to path, as the probe's field manager, forced; its HTTP status."""
    global writer
    for attempt in (1, 2):
        try:
            writer.request("PATCH", query(path, "fieldManager=bench-probe&force=true"), json.dumps(body),
                           {"Content-Type": "application/apply-patch+yaml"})
            response = writer.getresponse()
            response.read()
            return response.status
        except (http.client.HTTPException, OSError):
            writer.close()
            writer = connect()   # the connection was closed while idle: reconnect once
            if attempt == 2:
                raise


writes = PolicyStatuses() if os.environ.get("WRITES") == "policy-status" else ConfigMaps()


def apply(namespace):
    global seq
    seq += 1
    return send(writes.path(namespace), writes.body(namespace, seq))


def changes(stream):
    """Each object a watch stream adds or modifies, with the monotonic time its line arrived."""
    while True:
        line = stream.readline()
        if not line:
            return
        arrived = time.monotonic()
        event = json.loads(line)
        if event.get("type") in ("ADDED", "MODIFIED"):
            yield arrived, event["object"]


shown = {}   # namespace -> (seq, monotonic time) of the last apply the watch of what it writes showed
shown_changed = threading.Condition()


def watch_applies(version):
    cms = connect(timeout=None)   # a watch: quiet between events for as long as the bench waits
    cms.request("GET", query(writes.watch, f"watch=true&allowWatchBookmarks=false&resourceVersion={version}"))
    for arrived, written in changes(cms.getresponse()):
        with shown_changed:
            shown[written["metadata"]["namespace"]] = (writes.count(written), arrived)
            shown_changed.notify_all()


def shown_after(namespace, seq, timeout=10):
    """The monotonic time the watch of what it writes showed apply seq in namespace (None if not within timeout s)."""
    with shown_changed:
        shown_changed.wait_for(lambda: shown.get(namespace, (0, 0))[0] >= seq, timeout)
        s = shown.get(namespace)
        return s[1] if s and s[0] >= seq else None


watcher = connect()
watcher.request("GET", "/apis/apps/v1/deployments?fieldSelector=metadata.name%3Dsvc-1")
listed = json.loads(watcher.getresponse().read())
replicas = {d["metadata"]["namespace"]: d["spec"].get("replicas", 1) for d in listed["items"]}
version = listed["metadata"]["resourceVersion"]
for namespace in replicas:   # each event's apply updates what it writes, as the operator's updates a status
    apply(namespace)
lister = connect()
lister.request("GET", query(writes.watch, "limit=1"))
threading.Thread(target=watch_applies, args=(json.loads(lister.getresponse().read())["metadata"]["resourceVersion"],),
                 daemon=True).start()
watcher.request("GET", "/apis/apps/v1/deployments?fieldSelector=metadata.name%3Dsvc-1&watch=true"
                       f"&allowWatchBookmarks=false&resourceVersion={version}")
stream = watcher.getresponse()
print("listening", flush=True)
for arrived, d in changes(stream):
    ns, now = d["metadata"]["namespace"], d["spec"].get("replicas", 1)
    before, replicas[ns] = replicas.get(ns), now
    if before is not None and now > before:
        status = apply(ns)
        answered = time.monotonic()
        watched = shown_after(ns, seq)
        print(f"{ns} {round((answered - arrived) * 1000)} {status} "
              f"{round((watched - arrived) * 1000) if watched else 'none'}", flush=True)
