#!/bin/sh
# Entrypoint of the verifier image: drop settings that are set but empty, then run the
# command. Compose passes a setting left blank in .env (VERIFIER_API_KEY=) as an empty
# string, and so does a Kubernetes Secret with an empty value; the service reads an empty
# VERIFIER_API_KEY as "the key is the empty string" (every scoring call then gets 401)
# rather than "no auth". Blank means unset for every VERIFIER_*, Q* and KDB_* variable.
set -eu
for name in $(env | sed -n 's/^\(VERIFIER_[A-Za-z0-9_]*\)=$/\1/p; s/^\(Q[A-Z_]*\)=$/\1/p; s/^\(KDB_[A-Z0-9_]*\)=$/\1/p'); do
  unset "$name"
done
exec "$@"
