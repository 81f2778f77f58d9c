#!/bin/sh
# Scripted stand-in for an SDK tool that only exists in a container image.
# The test copies it into a private bin directory under the tool's name and
# puts that directory first on the PATH given to the backend. Every call is
# recorded under <bin>/calls/<n>/ (argv one per line, cwd, env sorted); then
# the files next to it, named after the tool, say what it does:
#   <tool>.log   printed as the tool's output
#   <tool>.post  a shell snippet run after recording (makes build outputs)
#   <tool>.hang  present: start a child that ignores SIGTERM, write its pid
#                to <tool>.pid, and wait forever
#   <tool>.exit  the exit status (default 0)
bin=$(cd "$(dirname "$0")" && pwd)
tool=$(basename "$0")
mkdir -p "$bin/calls"
n=$(ls "$bin/calls" | wc -l)
rec="$bin/calls/$n"
mkdir "$rec"
printf '%s\n' "$tool" "$@" >"$rec/argv"
pwd >"$rec/cwd"
env | LC_ALL=C sort >"$rec/env"
if [ -f "$bin/$tool.post" ]; then
	. "$bin/$tool.post" || exit 97
fi
if [ -f "$bin/$tool.log" ]; then
	cat "$bin/$tool.log"
fi
if [ -f "$bin/$tool.hang" ]; then
	sh -c 'trap "" TERM; echo $$ >"$1"; while :; do sleep 1; done' hang "$bin/$tool.pid" &
	wait
fi
code=0
if [ -f "$bin/$tool.exit" ]; then
	code=$(cat "$bin/$tool.exit")
fi
exit "$code"
