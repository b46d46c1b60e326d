#!/bin/sh
# Makes TEST certificates for the cluster's event-bus TLS (docs/security.md): a CA, one
# certificate per node signed by it, and the PKCS12 stores Shepherd reads:
#   <dir>/truststore.p12   the CA's certificate    (SHEPHERD_EVENTBUS_TLS_TRUSTSTORE)
#   <dir>/<node>.p12       a node's key and chain  (SHEPHERD_EVENTBUS_TLS_KEYSTORE)
#   <dir>/ca.p12           the CA's key: keep it away from the nodes
# every store with the password $PASSWORD (default "changeit").
#
# NOT FOR PRODUCTION: the keys are made on this machine with a known password and a short
# life, and anyone with this script makes the same kind. Use your own CA (see docs/security.md).
#
# usage: make-test-certs.sh <dir> <node> [<node> ...]      (keytool from $JAVA_HOME or PATH)
set -eu
if [ $# -lt 2 ]; then
  echo "usage: $0 <dir> <node> [<node> ...]" >&2
  exit 2
fi
dir=$1
shift
PASSWORD=${PASSWORD:-changeit}
DAYS=${DAYS:-30}
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/keytool" ]; then
  KEYTOOL=$JAVA_HOME/bin/keytool
else
  KEYTOOL=keytool
fi
mkdir -p "$dir"
kt() { "$KEYTOOL" "$@" -storetype PKCS12 -storepass "$PASSWORD" 2>/dev/null; }

if [ ! -f "$dir/ca.p12" ]; then
  kt -genkeypair -alias ca -keyalg EC -groupname secp256r1 -validity "$DAYS" \
    -dname "CN=shepherd test CA (not for production)" -ext bc:c -keystore "$dir/ca.p12"
fi
kt -exportcert -rfc -alias ca -keystore "$dir/ca.p12" -file "$dir/ca.pem"
rm -f "$dir/truststore.p12"
kt -importcert -noprompt -alias ca -file "$dir/ca.pem" -keystore "$dir/truststore.p12"

for node in "$@"; do
  rm -f "$dir/$node.p12" "$dir/$node.csr" "$dir/$node.pem"
  kt -genkeypair -alias node -keyalg EC -groupname secp256r1 -validity "$DAYS" \
    -dname "CN=$node" -keystore "$dir/$node.p12"
  kt -certreq -alias node -keystore "$dir/$node.p12" -file "$dir/$node.csr"
  kt -gencert -rfc -alias ca -keystore "$dir/ca.p12" -infile "$dir/$node.csr" \
    -outfile "$dir/$node.pem" -validity "$DAYS" -ext ku:c=digitalSignature,keyAgreement \
    -ext eku=serverAuth,clientAuth -ext "san=dns:$node"
  kt -importcert -noprompt -alias ca -file "$dir/ca.pem" -keystore "$dir/$node.p12"
  kt -importcert -noprompt -alias node -file "$dir/$node.pem" -keystore "$dir/$node.p12"
  rm -f "$dir/$node.csr" "$dir/$node.pem"
done
echo "test certificates in $dir (CA, truststore.p12, $*): not for production"
