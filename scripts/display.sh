# Sourced by scripts/test.sh and scripts/ci-extra.sh. use_private_display NAME: without a display,
# starts a private Xvfb, waits until it accepts clients, exports DISPLAY and stops the server when
# the calling script exits (NAME prefixes its messages). With a display, or without Xvfb, it does
# nothing.
use_private_display() {
  [[ -z "${DISPLAY:-}" ]] && command -v Xvfb >/dev/null || return 0
  # Our own virtual display, started and waited for here, so the window test never races the
  # server's start. Its socket appearing is not enough: on a fresh Debian 12 install the first
  # run's window test could not open the display although the socket was there. An X server
  # started with SIGUSR1 ignored signals its parent once it accepts clients, and -noreset keeps
  # it from restarting (and refusing connections meanwhile) each time its last client leaves.
  n=90
  while [[ -e /tmp/.X$n-lock || -e /tmp/.X11-unix/X$n ]]; do n=$((n + 1)); done
  xvfb_ready=0
  trap 'xvfb_ready=1' USR1
  (
    trap '' USR1
    exec Xvfb ":$n" -screen 0 1280x720x24 -nolisten tcp -noreset >/dev/null 2>&1
  ) &
  xvfb_pid=$!
  trap 'kill $xvfb_pid 2>/dev/null' EXIT
  # Up to 60 s: a loaded machine (a parallel build) has taken more than 10 s to start it.
  for _ in $(seq 600); do
    [[ $xvfb_ready == 1 ]] && break
    sleep 0.1
  done
  trap - USR1
  [[ $xvfb_ready == 1 ]] || echo "$1: Xvfb :$n was not ready within 60 s" >&2
  export DISPLAY=":$n"
}
