#!/bin/sh
# The template step of the official nginx image, for an nginx image built from Debian
# packages (scripts/base-images.sh): render /etc/nginx/templates/*.template into
# /etc/nginx/conf.d/ with envsubst, then run the command (nginx in the foreground).
# Only variables that are set are substituted, as in the official image, so nginx's own
# $variables survive; here they are further limited to the GATEWAY_* settings.
set -eu
templates=${NGINX_ENVSUBST_TEMPLATE_DIR:-/etc/nginx/templates}
output=${NGINX_ENVSUBST_OUTPUT_DIR:-/etc/nginx/conf.d}
defined=$(env | sed -n 's/^\(GATEWAY_[A-Za-z0-9_]*\)=.*/${\1}/p' | tr '\n' ' ')
for template in "$templates"/*.template; do
  [ -f "$template" ] || continue
  target="$output/$(basename "$template" .template)"
  envsubst "$defined" <"$template" >"$target"
  echo "template-entrypoint: rendered $template to $target"
done
exec "$@"
