#!/bin/sh
# Drive the fan from the first thermal zone: on above 60 C, off below 50 C.
ZONE=/sys/class/thermal/thermal_zone0/temp
FAN=/sys/class/hwmon/hwmon0/pwm1
while :; do
	t=$(cat "$ZONE")
	if [ "$t" -gt 60000 ]; then echo 255 > "$FAN"; elif [ "$t" -lt 50000 ]; then echo 0 > "$FAN"; fi
	sleep 5
done
