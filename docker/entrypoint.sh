#!/bin/sh
# Starts one clustered Shepherd node. Every node runs the same jar with -cluster -conf <file>;
# what differs is set through the environment:
#
#   SHEPHERD_ROLE                 picks the configuration conf/cluster-<role>.json
#                                 (coordinator: the pool and the HTTP API; host: worker slots).
#                                 Default: coordinator.
#   SHEPHERD_CONF                 a configuration file (or inline JSON) instead of the role's.
#   SHEPHERD_CLUSTER_MEMBERS      comma-separated host[:port] of the cluster's members.
#   SHEPHERD_CLUSTER_HOST         the address this node binds and announces.
#   SHEPHERD_CLUSTER_NAME         nodes join only a cluster of the same name.
#   SHEPHERD_CLUSTER_PORT         the first cluster port this node tries (5701).
#   SHEPHERD_CLUSTER_MAJORITY     members that make a majority, for highly available pools (2).
#   JAVA_OPTS                     extra JVM options.
#   JAR                           the jar to run (default: target/shepherd.jar beside this folder).
#   SHEPHERD_CLASSPATH            run dev.shepherd.app.Main from this class path instead of a jar.
#
# Outside a container it runs from a checkout:  JAR=target/shepherd.jar docker/entrypoint.sh
# Arguments are passed on to the launcher. The JVM replaces this shell (exec), so signals reach
# it directly: SIGTERM stops the node gracefully.
set -eu

here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
root=$(dirname -- "$here")
role=${SHEPHERD_ROLE:-coordinator}
case $role in
  *[!A-Za-z0-9_-]* | '')
    echo "shepherd: SHEPHERD_ROLE must be a role name such as coordinator or host (was \"$role\")" >&2
    exit 2 ;;
esac
conf=${SHEPHERD_CONF:-$root/conf/cluster-$role.json}
if [ -z "${SHEPHERD_CONF:-}" ] && [ ! -f "$conf" ]; then
  echo "shepherd: SHEPHERD_ROLE: no configuration for role \"$role\" at $conf" >&2
  exit 2
fi
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java=$JAVA_HOME/bin/java
else
  java=java
fi
export HZ_PHONE_HOME_ENABLED=false

if [ -n "${SHEPHERD_CLASSPATH:-}" ]; then
  # What the jar's manifest says for Hazelcast (Add-Opens, Add-Exports).
  opens="--add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED"
  opens="$opens --add-opens java.management/sun.management=ALL-UNNAMED"
  opens="$opens --add-opens jdk.management/com.sun.management.internal=ALL-UNNAMED"
  opens="$opens --add-opens java.base/java.nio=ALL-UNNAMED"
  opens="$opens --add-exports java.base/jdk.internal.ref=ALL-UNNAMED"
  # shellcheck disable=SC2086 # JAVA_OPTS and opens are lists of options
  exec "$java" $opens ${JAVA_OPTS:-} -cp "$SHEPHERD_CLASSPATH" dev.shepherd.app.Main \
    -cluster -conf "$conf" "$@"
fi

jar=${JAR:-$root/target/shepherd.jar}
if [ ! -f "$jar" ]; then
  echo "shepherd: JAR: no jar at $jar (build it with mvn -B -DskipTests package)" >&2
  exit 2
fi
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options
exec "$java" ${JAVA_OPTS:-} -jar "$jar" -cluster -conf "$conf" "$@"
