# SPDX-License-Identifier: MIT
# A one-node Slurm of the test's own, on loopback (sourced; POSIX sh):
#
#   slurm_missing       print the missing programs; true if any
#   slurm_up DIR        start munged, slurmctld and slurmd with their
#                       configuration, keys, sockets, state, spool and
#                       logs in DIR, on two free TCP ports of 127.0.0.1;
#                       export SLURM_CONF for the test's sbatch, squeue
#                       and srun; wait until the node is idle.  False
#                       with the reason in $slurm_why on failure.
#   slurm_down          stop the three daemons this file started, by pid
#                       (never by name), and wait for them
#
# Nothing of a Slurm or MUNGE the machine already runs is used or
# touched: other ports, another MUNGE socket and key, and no file
# outside DIR.  Needs root (the daemons run as root, SlurmUser=root).

slurm_pids=
slurm_why=

slurm_missing()
{
	sm_missing=
	for sm_p in munged munge slurmctld slurmd sbatch squeue sinfo srun; do
		command -v "$sm_p" >/dev/null 2>&1 || sm_missing="$sm_missing $sm_p"
	done
	[ -n "$sm_missing" ] && echo "$sm_missing"
	[ -n "$sm_missing" ]
}

# slurm_free_ports: two TCP ports of 127.0.0.1 that nothing listens on
slurm_free_ports()
{
	python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])'
}

# slurm_start NAME CMD...: CMD in the background, its pid noted (in this
# shell: call slurm_up outside $(...) and subshells, or the pids are lost)
slurm_start()
{
	ss_name=$1
	shift
	"$@" >"$slurm_dir/$ss_name.out" 2>&1 &
	slurm_pids="$slurm_pids $!"
}

slurm_up()
{
	slurm_dir=$1
	if [ "$(id -u)" -ne 0 ]; then
		slurm_why="not root (the test's slurmd runs jobs as any user)"
		return 1
	fi
	if ! sl_ports=$(slurm_free_ports 2>/dev/null); then
		slurm_why="no python3 to find free ports"
		return 1
	fi
	set -- $sl_ports
	sl_host=$(hostname -s)
	mkdir -p "$slurm_dir/munge" "$slurm_dir/state" "$slurm_dir/spool" &&
		chmod 700 "$slurm_dir/munge" &&
		dd if=/dev/urandom of="$slurm_dir/munge/key" bs=1024 count=1 \
			2>/dev/null && chmod 400 "$slurm_dir/munge/key" || {
		slurm_why="cannot make $slurm_dir"
		return 1
	}
	cat >"$slurm_dir/slurm.conf" <<EOF
ClusterName=pagepool-test
SlurmctldHost=$sl_host(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/munge/socket
CredType=cred/munge
StateSaveLocation=$slurm_dir/state
SlurmdSpoolDir=$slurm_dir/spool
SlurmctldPidFile=$slurm_dir/slurmctld.pid
SlurmdPidFile=$slurm_dir/slurmd.pid
SlurmctldLogFile=$slurm_dir/slurmctld.log
SlurmdLogFile=$slurm_dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/linear
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
NodeName=$sl_host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
	SLURM_CONF=$slurm_dir/slurm.conf
	export SLURM_CONF
	# -f: munged refuses a socket under a directory not all may search
	slurm_start munged munged -F -f \
		--socket="$slurm_dir/munge/socket" \
		--key-file="$slurm_dir/munge/key" \
		--log-file="$slurm_dir/munge/log" \
		--pid-file="$slurm_dir/munge/pid" \
		--seed-file="$slurm_dir/munge/seed"
	sl_n=0
	while [ ! -S "$slurm_dir/munge/socket" ] && [ $sl_n -lt 100 ]; do
		sleep 0.1
		sl_n=$((sl_n + 1))
	done
	slurm_start slurmctld slurmctld -D -f "$SLURM_CONF"
	slurm_start slurmd slurmd -D -f "$SLURM_CONF"
	sl_n=0
	until [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; do
		sl_n=$((sl_n + 1))
		if [ $sl_n -ge 300 ]; then
			slurm_why="the node did not become idle in 30 s: $(tail -n 2 "$slurm_dir/slurmctld.log" "$slurm_dir"/*.out 2>/dev/null | tr '\n' ' ')"
			return 1
		fi
		sleep 0.1
	done
}

slurm_down()
{
	[ -n "$slurm_pids" ] || return 0
	# shellcheck disable=SC2086
	kill $slurm_pids 2>/dev/null
	for sd_pid in $slurm_pids; do
		wait "$sd_pid" 2>/dev/null
	done
	slurm_pids=
}
