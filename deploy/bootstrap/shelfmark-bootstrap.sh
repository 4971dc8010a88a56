#!/bin/bash
# Shelfmark first-boot bootstrap: the whole setup of one node (docs/distribution.md, "The bootstrap
# contract"). Reads its settings from the environment and from $SHELFMARK_ROOT/etc/shelfmark/bootstrap.env
# (KEY='value' lines, which win), then:
#   1. finds this node's address, memory and disk;
#   2. installs a JDK 25 (Amazon Corretto, dnf) and formats + mounts the NVMe instance storage at the
#      data directory at every boot (a unit of its own)                   [SHELFMARK_INSTALL_SYSTEM=true]
#   3. downloads the distribution tarball and unpacks it to /opt/shelfmark/<version> (+ current);
#   4. writes each role's config with `shelfmark config render` (the code path cluster up uses),
#      and each process's env file with its fixed heap (`shelfmark config sizing`);
#   5. writes the systemd units and enables them                           [SHELFMARK_INSTALL_SYSTEM=true]
# With SHELFMARK_INSTALL_SYSTEM=false (the local test) the steps marked so are logged as skipped, and
# every path is under SHELFMARK_ROOT. Safe to run again: it rewrites what it wrote.
set -euo pipefail

root=${SHELFMARK_ROOT:-/}
root=${root%/} # "" for /, so "$root/etc" is /etc
if [[ -f $root/etc/shelfmark/bootstrap.env ]]; then
  # shellcheck disable=SC1091
  source "$root/etc/shelfmark/bootstrap.env"
fi

install_system=${SHELFMARK_INSTALL_SYSTEM:-true}
node_kind=${SHELFMARK_NODE_KIND:-}
dist_url=${SHELFMARK_DIST_URL:-}
version=${SHELFMARK_VERSION:-}
cluster_name=${SHELFMARK_CLUSTER_NAME:-shelfmark}
host=${SHELFMARK_HOST:-}
zookeeper_port=${SHELFMARK_ZOOKEEPER_PORT:-2181}
zookeeper_connect=${SHELFMARK_ZOOKEEPER_CONNECT:-}
broker_http_port=${SHELFMARK_BROKER_HTTP_PORT:-8099}
broker_flight_port=${SHELFMARK_BROKER_FLIGHT_PORT:-8815}
controller_http_port=${SHELFMARK_CONTROLLER_HTTP_PORT:-8097}
server_rpc_port=${SHELFMARK_SERVER_RPC_PORT:-8098}
# The server's Flight port is its RPC port (server.rpc-port); a different value is refused below.
server_flight_port=${SHELFMARK_SERVER_FLIGHT_PORT:-$server_rpc_port}
storage_region=${SHELFMARK_STORAGE_REGION:-us-east-1}
storage_endpoint=${SHELFMARK_STORAGE_ENDPOINT:-}
catalog_type=${SHELFMARK_CATALOG_TYPE:-}
catalog_name=${SHELFMARK_CATALOG_NAME:-shelfmark}
catalog_uri=${SHELFMARK_CATALOG_URI:-}
catalog_warehouse=${SHELFMARK_CATALOG_WAREHOUSE:-}
catalog_properties_json=${SHELFMARK_CATALOG_PROPERTIES_JSON:-}
secret_parameter=${SHELFMARK_CATALOG_SECRET_SSM_PARAMETER:-}
secret_env_var=${SHELFMARK_CATALOG_SECRET_ENV_VAR:-}
segment_store=${SHELFMARK_SEGMENT_STORE:-}
data_dir=${SHELFMARK_DATA_DIR:-/var/lib/shelfmark}
memory_mb=${SHELFMARK_MEMORY_MB:-}
disk_mb=${SHELFMARK_DISK_GB:+$((SHELFMARK_DISK_GB * 1024))}
# Addition to the contract: the nodes listen on private addresses and write no users, so the
# broker's unauthenticated remote access is allowed knowingly (the security group keeps others out).
allow_remote=${SHELFMARK_ALLOW_UNAUTHENTICATED_REMOTE_ACCESS:-true}
jdk_package=${SHELFMARK_JDK_PACKAGE:-java-25-amazon-corretto-headless}
service_user=shelfmark

log() { echo "shelfmark-bootstrap: $*"; }
skip() { log "skipped (SHELFMARK_INSTALL_SYSTEM=$install_system): $*"; }
fail() {
  echo "Cannot bootstrap Shelfmark${node_kind:+ $node_kind}: $*" >&2
  exit 1
}
system() { [[ $install_system == true ]]; }

[[ $install_system == true || $install_system == false ]] ||
  fail "SHELFMARK_INSTALL_SYSTEM is '$install_system' (expected true or false)"
case $node_kind in
  coordinator | server) ;;
  *) fail "SHELFMARK_NODE_KIND is '$node_kind' (expected coordinator or server)" ;;
esac
for required in dist_url version catalog_type segment_store; do
  [[ -n ${!required} ]] || fail "SHELFMARK_${required^^} is not set (see docs/distribution.md, the bootstrap contract)"
done
[[ $server_flight_port == "$server_rpc_port" ]] ||
  fail "SHELFMARK_SERVER_FLIGHT_PORT=$server_flight_port differs from SHELFMARK_SERVER_RPC_PORT=$server_rpc_port (the server's Flight port is its RPC port: set only SHELFMARK_SERVER_RPC_PORT)"
if system; then
  mkdir -p /var/log
  exec > >(tee -a /var/log/shelfmark-bootstrap.log) 2>&1
fi
log "starting $node_kind bootstrap of Shelfmark $version at $(date --iso-8601=seconds) (root ${root:-/})"

# --- 1. Address -------------------------------------------------------------------------------
if [[ -z $host ]]; then
  if token=$(curl -fsS --connect-timeout 2 -X PUT http://169.254.169.254/latest/api/token \
      -H 'X-aws-ec2-metadata-token-ttl-seconds: 300' 2> /dev/null) &&
    host=$(curl -fsS --connect-timeout 2 -H "X-aws-ec2-metadata-token: $token" \
      http://169.254.169.254/latest/meta-data/local-ipv4 2> /dev/null); then
    log "host $host (instance metadata, local-ipv4)"
  else
    host=$(hostname -I 2> /dev/null | awk '{print $1}')
    [[ -n $host ]] || fail "cannot find this node's address (set SHELFMARK_HOST)"
    log "host $host (hostname -I)"
  fi
fi
run_zookeeper=false
if [[ $node_kind == coordinator ]]; then
  # ZooKeeper runs on the coordinator unless the connect string names an external ensemble.
  if [[ -z $zookeeper_connect || $zookeeper_connect == "$host:$zookeeper_port" ]]; then
    run_zookeeper=true
    zookeeper_connect=$host:$zookeeper_port
  fi
fi
[[ -n $zookeeper_connect ]] || fail "SHELFMARK_ZOOKEEPER_CONNECT is not set (the coordinator's host:port)"

# --- 2. JDK, user, data directory ---------------------------------------------------------------
if system; then
  command -v aws > /dev/null || dnf install -y awscli-2
  if ! dnf install -y "$jdk_package"; then
    log "$jdk_package is not in the distribution's repository; adding the Corretto repository"
    rpm --import https://yum.corretto.aws/corretto.key
    curl -fsSL -o /etc/yum.repos.d/corretto.repo https://yum.corretto.aws/corretto.repo
    dnf install -y "$jdk_package" || fail "cannot install $jdk_package (set SHELFMARK_JDK_PACKAGE to a JDK 25 package)"
  fi
  java_home=""
  for candidate in /usr/lib/jvm/*; do
    [[ -x $candidate/bin/java ]] || continue
    major=$("$candidate/bin/java" -XshowSettings:properties -version 2>&1 |
      sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1)
    if [[ -n $major && $major -ge 25 ]]; then
      java_home=$candidate
      break
    fi
  done
  [[ -n $java_home ]] || fail "no JDK 25 or newer under /usr/lib/jvm after installing $jdk_package"
  id "$service_user" > /dev/null 2>&1 ||
    useradd --system --home-dir "$data_dir" --no-create-home --shell /sbin/nologin "$service_user"
else
  skip "dnf install $jdk_package awscli-2, useradd $service_user"
  java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
  service_user=$(id -un)
fi
install -d -m 0755 "$root/etc/shelfmark" "$root/opt/shelfmark" "$root/etc/systemd/system"

data_path=$root$data_dir
if [[ $node_kind == server ]] && system; then
  install -d -m 0755 /usr/local/libexec/shelfmark
  dnf install -y mdadm xfsprogs
  cat > /usr/local/libexec/shelfmark/prepare-nvme << NVME_EOF
#!/bin/bash
# Mounts the NVMe instance storage at $data_dir, formatting it when blank. Instance storage
# survives a reboot but is blank after a stop/start, so this runs at every boot; several devices
# are striped (RAID 0) into one volume.
set -euo pipefail
data_dir=$data_dir
label=shelfmark-data
NVME_EOF
  cat >> /usr/local/libexec/shelfmark/prepare-nvme << 'NVME_EOF'
if mountpoint -q "$data_dir"; then
  exit 0
fi
mkdir -p "$data_dir"
mdadm --assemble --scan > /dev/null 2>&1 || true # a striped volume after a reboot
device=$(blkid -L "$label" || true)
if [[ -z $device ]]; then
  mapfile -t devices < <(lsblk -dpno NAME,MODEL | awk '/Amazon EC2 NVMe Instance Storage/ {print $1}')
  if ((${#devices[@]} == 0)); then
    echo "Cannot prepare $data_dir: this instance type has no NVMe instance storage (use one such as r6gd.4xlarge)" >&2
    exit 1
  elif ((${#devices[@]} == 1)); then
    device=${devices[0]}
  else
    device=/dev/md/shelfmark
    mdadm --create "$device" --run --level=0 --raid-devices="${#devices[@]}" "${devices[@]}"
  fi
  # -K: no discard pass; instance storage is already trimmed when it is handed out.
  mkfs.xfs -f -K -L "$label" "$device"
fi
mount -o noatime "$device" "$data_dir"
chown shelfmark:shelfmark "$data_dir"
chmod 0750 "$data_dir"
NVME_EOF
  chmod 0755 /usr/local/libexec/shelfmark/prepare-nvme
  cat > /etc/systemd/system/shelfmark-nvme.service << 'NVME_EOF'
[Unit]
Description=Mount NVMe instance storage at the Shelfmark data directory
After=local-fs.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/libexec/shelfmark/prepare-nvme

[Install]
WantedBy=multi-user.target
NVME_EOF
  systemctl daemon-reload
  systemctl enable --now shelfmark-nvme.service
else
  [[ $node_kind == server ]] && skip "NVMe format and mount at $data_dir (shelfmark-nvme.service)"
  install -d -m 0750 "$data_path"
fi
system && chown "$service_user:$service_user" "$data_path"

if [[ -z $memory_mb ]]; then
  memory_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
fi
if [[ -z $disk_mb ]]; then
  disk_mb=$(df -Pm "$data_path" | awk 'NR == 2 {print $2}')
fi
log "memory ${memory_mb} MiB, data disk ${disk_mb} MiB at $data_path"

# --- 3. Distribution --------------------------------------------------------------------------
install_dir=$root/opt/shelfmark/$version
tarball=$(mktemp --suffix=.tar.gz)
trap 'rm -f "$tarball"' EXIT
case $dist_url in
  s3://*) aws s3 cp --region "$storage_region" --only-show-errors "$dist_url" "$tarball" ||
    fail "cannot download $dist_url (check it exists and the instance role may read it)" ;;
  https://* | http://*) curl -fsSL -o "$tarball" "$dist_url" || fail "cannot download $dist_url" ;;
  file://*) cp "${dist_url#file://}" "$tarball" || fail "cannot copy $dist_url" ;;
  *) fail "SHELFMARK_DIST_URL is '$dist_url' (expected s3://, https:// or file://)" ;;
esac
rm -rf "$install_dir"
install -d -m 0755 "$install_dir"
tar -xzf "$tarball" -C "$install_dir" --strip-components=1 --no-same-owner
launcher=$install_dir/bin/shelfmark
[[ -x $launcher ]] || fail "$dist_url has no bin/shelfmark under its top-level directory"
ln -sfn "$version" "$root/opt/shelfmark/current"
log "unpacked $dist_url into $install_dir"
export JAVA_HOME=$java_home

# --- 4. Configs and env files -------------------------------------------------------------------
declare -A heaps
while read -r process heap; do
  heaps[$process]=$heap
done < <("$launcher" config sizing --node-kind="$node_kind" --memory-mb="$memory_mb" --disk-mb="$disk_mb")

processes=()
if [[ $node_kind == coordinator ]]; then
  [[ $run_zookeeper == true ]] && processes+=(zookeeper)
  processes+=(controller broker)
else
  processes+=(server)
fi

render_args=(
  --cluster-name="$cluster_name" --host="$host" --zookeeper-connect="$zookeeper_connect"
  --broker-http-port="$broker_http_port" --broker-flight-port="$broker_flight_port"
  --controller-http-port="$controller_http_port" --server-rpc-port="$server_rpc_port"
  --storage-region="$storage_region" --catalog-type="$catalog_type" --catalog-name="$catalog_name"
  --segment-store="$segment_store" --memory-mb="$memory_mb" --disk-mb="$disk_mb"
)
[[ -n $storage_endpoint ]] && render_args+=(--storage-endpoint="$storage_endpoint")
[[ -n $catalog_uri ]] && render_args+=(--catalog-uri="$catalog_uri")
[[ -n $catalog_warehouse ]] && render_args+=(--catalog-warehouse="$catalog_warehouse")
[[ -n $catalog_properties_json ]] && render_args+=(--catalog-properties-json="$catalog_properties_json")
[[ $allow_remote == true ]] && render_args+=(--allow-unauthenticated-remote-access)

# The JVM options of every process (docs/performance.md, "JVM options"); the launcher adds the
# module flags Arrow and the native libraries need.
jvm_options="-XX:+ExitOnOutOfMemoryError -XX:+AlwaysPreTouch -XX:+UseG1GC"
for process in "${processes[@]}"; do
  heap=${heaps[$process]:?no heap for $process}
  if [[ $process == zookeeper ]]; then
    arguments="--data-dir=$data_path/zookeeper --host=$host --port=$zookeeper_port"
  else
    config=$root/etc/shelfmark/$process.yaml
    "$launcher" config render --role="$process" --data-dir="$data_path/$process" \
      --output="$config" "${render_args[@]}" || fail "cannot render the $process config"
    arguments="--config=$config"
  fi
  # systemd EnvironmentFile syntax: the double quotes are removed, $SHELFMARK_ARGS is split on spaces.
  cat > "$root/etc/shelfmark/$process.env" << ENV_EOF
# Shelfmark $process: written by shelfmark-bootstrap.sh ($memory_mb MiB node: a fixed ${heap} MiB heap).
JAVA_HOME="$java_home"
SHELFMARK_ARGS="$arguments"
SHELFMARK_JAVA_OPTS="-Xms${heap}m -Xmx${heap}m $jvm_options"
ENV_EOF
  log "wrote $root/etc/shelfmark/$process.env${config:+ and $config} (heap ${heap} MiB)"
  unset config
done

# Settings every process shares: the region, and the catalog secret when one is configured.
node_env=$root/etc/shelfmark/shelfmark.env
umask_before=$(umask)
umask 0027
{
  echo "# Shelfmark node settings: written by shelfmark-bootstrap.sh."
  echo "AWS_REGION=\"$storage_region\""
} > "$node_env"
if [[ -n $secret_parameter ]]; then
  [[ -n $secret_env_var ]] || fail "SHELFMARK_CATALOG_SECRET_SSM_PARAMETER is set but SHELFMARK_CATALOG_SECRET_ENV_VAR is not"
  secret=$(aws ssm get-parameter --region "$storage_region" --name "$secret_parameter" \
    --with-decryption --query Parameter.Value --output text) ||
    fail "cannot read the catalog secret from SSM parameter $secret_parameter in $storage_region (check it exists and the instance role may read and decrypt it)"
  printf '%s="%s"\n' "$secret_env_var" "$secret" >> "$node_env"
  log "wrote the catalog secret of $secret_parameter into $node_env as $secret_env_var"
fi
umask "$umask_before"
system && chown "root:$service_user" "$node_env" "$root/etc/shelfmark/"*.yaml 2> /dev/null || true

# --- 5. systemd units ---------------------------------------------------------------------------
units=$root/etc/systemd/system
sed -e "s|@ROOT@|$root|g" -e "s|@DATA_DIR@|$data_path|g" -e "s|@USER@|$service_user|g" \
  "$install_dir/deploy/systemd/shelfmark@.service" > "$units/shelfmark@.service"
if [[ $run_zookeeper == true ]]; then
  for process in controller broker; do
    install -d -m 0755 "$units/shelfmark@$process.service.d"
    cat > "$units/shelfmark@$process.service.d/zookeeper.conf" << 'UNIT_EOF'
# ZooKeeper runs on this node: start after it.
[Unit]
Wants=shelfmark@zookeeper.service
After=shelfmark@zookeeper.service
UNIT_EOF
  done
fi
if [[ $node_kind == server ]] && system; then
  install -d -m 0755 "$units/shelfmark@server.service.d"
  cat > "$units/shelfmark@server.service.d/nvme.conf" << UNIT_EOF
# Never start on the root volume: the data directory must be the mounted NVMe volume.
[Unit]
Requires=shelfmark-nvme.service
After=shelfmark-nvme.service

[Service]
ExecStartPre=/usr/bin/mountpoint -q $data_dir
UNIT_EOF
fi
log "wrote $units/shelfmark@.service"
if system; then
  systemctl daemon-reload
  for process in "${processes[@]}"; do
    systemctl enable --now "shelfmark@$process.service"
  done
else
  skip "systemctl enable --now$(printf ' shelfmark@%s.service' "${processes[@]}")"
fi
log "done at $(date --iso-8601=seconds): $node_kind ${processes[*]} on $host, ZooKeeper $zookeeper_connect"
