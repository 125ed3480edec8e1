{{/* The release's full name, at most 63 characters. */}}
{{- define "poolbudget.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "poolbudget.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "poolbudget.labels" -}}
{{ include "poolbudget.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: operator
app.kubernetes.io/part-of: poolbudget
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "poolbudget.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "poolbudget.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name is required when serviceAccount.create is false" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
The rules the operator needs in every namespace it watches: exactly the verbs it calls
(RbacE2E derives them from the API server's audit log of the operator's own requests).
*/}}
{{- define "poolbudget.watchRules" -}}
# get: when the finalizer's removal meets a newer version of the policy (409), JOSDK reads the
# policy afresh by a GET before it tries again; refused, the deletion waits for a retry.
- apiGroups: [poolbudget.io]
  resources: [poolpolicies]
  verbs: [get, list, watch, patch]
- apiGroups: [poolbudget.io]
  resources: [poolpolicies/status]
  verbs: [patch]
- apiGroups: [apps]
  resources: [deployments, statefulsets]
  verbs: [list, watch, patch]
- apiGroups: [batch]
  resources: [cronjobs]
  verbs: [list, watch, patch]
# Argo Rollouts: watched only where their API is served (the rule is harmless where it is not)
- apiGroups: [argoproj.io]
  resources: [rollouts]
  verbs: [list, watch, patch]
- apiGroups: [autoscaling]
  resources: [horizontalpodautoscalers]
  verbs: [list, watch]
- apiGroups: [policy]
  resources: [poddisruptionbudgets]
  verbs: [list, watch]
- apiGroups: [""]
  resources: [pods]
  # patch: resize mode Live publishes a pod's size as its own annotation (live-size.poolbudget.io/<policy>)
  verbs: [list, watch, patch]
- apiGroups: [""]
  resources: [configmaps]
  verbs: [list, watch, create, patch, delete]
- apiGroups: [""]
  resources: [events]
  {{- if .Values.dashboard.enabled }}
  verbs: [create, list, watch]
  {{- else }}
  verbs: [create]
  {{- end }}
{{- with .Values.observe.secretNames }}
- apiGroups: [""]
  resources: [secrets]
  resourceNames: {{ toJson . }}
  verbs: [get]
{{- end }}
{{- end -}}
