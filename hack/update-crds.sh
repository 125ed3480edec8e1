#!/usr/bin/env bash
# Regenerates the CRDs from the Java API classes and copies them into crds/, the Helm chart
# and operator/, and the field reference rendered from them (docs/reference/crds.md). Run after changing anything
# in io.poolbudget.api; commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -B -q package -DskipTests -DskipITs
rm -f crds/*.yml
cp target/kubernetes/*.poolbudget.io-v1.yml crds/
for chart_crds in charts/*/crds; do
  [ -d "$chart_crds" ] && cp crds/*.yml "$chart_crds/"
done
hack/render-operator.sh
./mvnw -B -q test -pl src -am -Dtest=CrdReferenceTest -Dpoolbudget.update-docs=true -Dsurefire.failIfNoSpecifiedTests=false
git status --short crds charts operator docs/reference/crds.md 2>/dev/null || true
