# Sourced (bash) by scripts/test-puppetserver and benches/compile/server-run:
# a real Puppet Server (Debian's puppetserver) run as this user, bound to
# 127.0.0.1 (plain HTTP; auth.conf lets the catalog endpoint be used without
# a certificate, nothing else), one JRuby instance, with confdir, codedir,
# vardir, logdir and its own configuration in a directory of the caller's:
# no /etc state is read or written, and the system service is not involved.
#
#   ps_configure DIR PORT            writes an instance's configuration under DIR
#                                    (DIR/puppet: Puppet's confdir, with a puppet.conf
#                                    naming vardir, logdir and rundir; DIR/code: its
#                                    codedir, with an empty modules/; DIR/var, DIR/log,
#                                    ...); PS_LOAD_PATH (extra jruby-puppet.ruby-load-path
#                                    entries, one per line) and PS_ENV_VARS (a HOCON
#                                    object for jruby-puppet.environment-vars) if set
#   ps_start DIR NAME                starts it, waits until it is running: ps_launch
#                                    (its PID in DIR/pid and PS_PIDS; stdout in
#                                    DIR/log/stdout-NAME.log; PS_JAVA_ARGS, words,
#                                    replaces the JVM's options), then ps_wait
#   ps_stop DIR                      stops it (by its PID)
#   ps_stop_all                      stops every instance started (for an EXIT trap)
#
# Callers set PS_ROOT (the checkout) before sourcing.
PS_JAR=/usr/share/puppetserver/puppetserver.jar
PS_PIDS=()
# A small heap, and the JIT's first tier only, which halves the start (Puppet
# Server compiles its Clojure at start).
PS_JAVA_ARGS_DEFAULT="-Xms256m -Xmx768m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

ps_helper() { ruby "$PS_ROOT/ruby/test/puppetserver/helper.rb" "$@"; }

ps_configure() {
  local dir=$1 port=$2
  local confdir=$dir/puppet codedir=$dir/code vardir=$dir/var rundir=$dir/run logdir=$dir/log
  local conf=$dir/puppetserver/conf.d services=$dir/puppetserver/services.d
  mkdir -p "$confdir" "$codedir/modules" "$vardir" "$rundir" "$logdir" "$conf" "$services" "$dir/gems"
  echo "$port" > "$dir/port"
  # Puppet Server's own configuration: Debian's services but the CA (disabled),
  # Debian's logback.xml with this log directory.
  grep -v 'certificate-authority-service\|^#' /etc/puppet/puppetserver/services.d/bootstrap.cfg | grep . > "$services/bootstrap.cfg"
  echo 'puppetlabs.services.ca.certificate-authority-disabled-service/certificate-authority-disabled-service' >> "$services/bootstrap.cfg"
  sed "s#/var/log/puppetserver/#$logdir/#g" /etc/puppet/puppetserver/logback.xml > "$dir/puppetserver/logback.xml"
  sed "s#/var/log/puppetserver/#$logdir/#g" /etc/puppet/puppetserver/request-logging.xml > "$dir/puppetserver/request-logging.xml"
  cat > "$conf/global.conf" <<CONF
global: { logging-config: "$dir/puppetserver/logback.xml" }
CONF
  cat > "$conf/webserver.conf" <<CONF
webserver: {
  access-log-config: "$dir/puppetserver/request-logging.xml"
  host: 127.0.0.1
  port: $port
}
CONF
  cat > "$conf/web-routes.conf" <<CONF
web-router-service: {
  "puppetlabs.services.master.master-service/master-service": "/puppet"
  "puppetlabs.services.puppet-admin.puppet-admin-service/puppet-admin-service": "/puppet-admin-api"
  "puppetlabs.trapperkeeper.services.status.status-service/status-service": "/status"
  "puppetlabs.trapperkeeper.services.metrics.metrics-service/metrics-webservice": "/metrics"
}
CONF
  cp /etc/puppet/puppetserver/conf.d/metrics.conf "$conf/"
  local load_path=/usr/lib/puppetserver/ruby/vendor_ruby line
  while IFS= read -r line; do
    [ -n "$line" ] && load_path="$load_path, \"$line\""
  done <<< "${PS_LOAD_PATH:-}"
  cat > "$conf/puppetserver.conf" <<CONF
jruby-puppet: {
  ruby-load-path: [$load_path]
  gem-home: "$dir/gems"
  gem-path: ["$dir/gems", /usr/lib/puppetserver/vendored-jruby-gems]
  server-conf-dir: "$confdir"
  server-code-dir: "$codedir"
  server-var-dir: "$vardir"
  server-run-dir: "$rundir"
  server-log-dir: "$logdir"
  max-active-instances: 1
${PS_ENV_VARS:+  environment-vars: $PS_ENV_VARS}
}
http-client: {}
profiler: {}
CONF
  # The catalog endpoint without a client certificate (the server listens on
  # 127.0.0.1 only), the simple status for the wait; everything else denied.
  cat > "$conf/auth.conf" <<'CONF'
authorization: {
  version: 1
  rules: [
    { match-request: { path: "^/puppet/v4/catalog/?$", type: regex, method: post }
      allow-unauthenticated: true, sort-order: 500, name: "catalog compiles from loopback" },
    { match-request: { path: "/status/v1/simple", type: path, method: get }
      allow-unauthenticated: true, sort-order: 500, name: "simple status" },
    { match-request: { path: "/", type: path }
      deny: "*", sort-order: 999, name: "deny all" }
  ]
}
CONF
  cat > "$confdir/puppet.conf" <<CONF
[main]
vardir = $vardir
logdir = $logdir
rundir = $rundir
CONF
}

ps_launch() {
  local dir=$1 name=$2 pid
  # -Djruby.lib and -Djruby.logger.class as Debian's puppetserver.service and
  # /etc/default/puppetserver.
  # shellcheck disable=SC2086
  java ${PS_JAVA_ARGS:-$PS_JAVA_ARGS_DEFAULT} \
    -Djruby.logger.class=com.puppetlabs.jruby_utils.jruby.Slf4jLogger \
    -Djruby.lib=/usr/share/jruby/lib -XX:+CrashOnOutOfMemoryError \
    -jar "$PS_JAR" --config "$dir/puppetserver/conf.d" --bootstrap-config "$dir/puppetserver/services.d" \
    >"$dir/log/stdout-$name.log" 2>&1 &
  pid=$!
  echo "$pid" > "$dir/pid"
  echo "$SECONDS" > "$dir/started"
  PS_PIDS+=("$pid")
}

ps_wait() {
  local dir=$1 name=$2 pid
  local url=http://127.0.0.1:$(cat "$dir/port")
  pid=$(cat "$dir/pid")
  ps_helper wait "$url" "$pid" || { tail -n 40 "$dir/log/puppetserver.log" "$dir/log/stdout-$name.log" >&2 || true; return 1; }
  echo "Puppet Server $name running (pid $pid, $url) after $((SECONDS - $(cat "$dir/started"))) s"
}

ps_start() {
  ps_launch "$1" "$2"
  ps_wait "$1" "$2"
}

ps_stop_pid() {
  local pid=$1
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid"
    wait "$pid" 2>/dev/null || true
  fi
}

ps_stop() {
  [ -f "$1/pid" ] || return 0
  ps_stop_pid "$(cat "$1/pid")"
  rm -f "$1/pid"
}

ps_stop_all() {
  local pid
  for pid in "${PS_PIDS[@]}"; do ps_stop_pid "$pid"; done
  PS_PIDS=()
}
