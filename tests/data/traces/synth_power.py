#!/usr/bin/env python3
# synth_power.py - writes a power trace MADE FOR THE TESTS (tests/calibrate_traces.sh)
# from known power-model values, so that `joulecast calibrate` must recover them:
#   P = idle + (TDP - idle) (1 - exp(-(kc u + km um))) + N(0, sigma)  per sample,
# u, um the logged utilisations (whole percents, drawn independently so the two
# coefficients are separable), idle ends of 30 s at 0 %.  Also prints, as JSON,
# what the test needs to judge the fit: the standard errors of kc and km that the
# noise implies for this design (linearised least squares: sigma^2 (J^T J)^-1),
# the idle level's (sigma / sqrt(n at 0 %)), and the trace's mean utilisations
# over the active window (trapezoid per GPU, as joulecast integrates).
#
# usage: synth_power.py FORMAT OUT T_ACTIVE_S TDP_W KC KM IDLE_W SIGMA_W
#   FORMAT: smi (nvidia-smi --query-gpu CSV, utilization.gpu and .memory),
#           smi1 (nvidia-smi with utilization.gpu only; km must be 0),
#           dcgmi (dcgmi dmon with a TIMESTAMP field in us, GPUTL and DRAMA)
import json
import math
import random
import sys
import time

fmt, out = sys.argv[1], sys.argv[2]
T, tdp, kc, km, idle, sigma = (float(x) for x in sys.argv[3:9])
G, dt, lead = 8, 0.5, 30.0
rng = random.Random(19)
t0 = 1717243200.0  # 2024-06-01T12:00:00Z


def stamp(t):
    return time.strftime("%Y/%m/%d %H:%M:%S", time.gmtime(int(t))) + ".%03d" % round((t % 1) * 1000)


times = [k * dt for k in range(int(round(lead / dt)) + 1)]
n_act = int(T // dt)
act = [lead + k * dt for k in range(1, n_act + 1)]
if act[-1] < lead + T - 1e-9:
    act.append(lead + T)
end = act[-1]
times += act + [end + k * dt for k in range(1, int(round(lead / dt)) + 1)]

rows, jtj, n0 = [], [[0.0, 0.0], [0.0, 0.0]], 0
gint = mint = 0.0
prev = {}
for t in times:
    for g in range(G):
        if lead < t <= end:
            u = rng.randint(20, 100) / 100.0
            um = rng.randint(5, 70) / 100.0 if fmt != "smi1" else 0.0
        else:
            u = um = 0.0
        z = kc * u + km * um
        w = idle + (tdp - idle) * (1 - math.exp(-z)) + rng.gauss(0, sigma)
        w = round(w, 2)
        if u == 0:
            n0 += 1
        else:
            d = [(tdp - idle) * u * math.exp(-z), (tdp - idle) * um * math.exp(-z)]
            for a in range(2):
                for b in range(2):
                    jtj[a][b] += d[a] * d[b]
        if g in prev:  # trapezoid of u, um over the active window
            tp, up, ump = prev[g]
            gint += 0.5 * (up + u) * (t - tp)
            mint += 0.5 * (ump + um) * (t - tp)
        prev[g] = (t, u, um)
        if fmt.startswith("smi"):
            r = "%s, %d, NVIDIA A100-SXM4-80GB, %.2f W, %d %%" % (stamp(t0 + t), g, w, round(u * 100))
            if fmt == "smi":
                r += ", %d %%" % round(um * 100)
        else:
            r = "GPU %d     %d  %.2f  %d  %.3f" % (g, round((t0 + t) * 1e6), w, round(u * 100), um)
        rows.append(r)

with open(out, "w") as f:
    if fmt == "smi":
        f.write("timestamp, index, name, power.draw [W], utilization.gpu [%], utilization.memory [%]\n")
    elif fmt == "smi1":
        f.write("timestamp, index, name, power.draw [W], utilization.gpu [%]\n")
    else:
        f.write("#Entity   TIMESTAMP         POWER    GPUTL    DRAMA\nID                          W        %\n")
    f.write("\n".join(rows) + "\n")

if fmt == "smi1":
    se = [sigma / math.sqrt(jtj[0][0]), None]
else:
    det = jtj[0][0] * jtj[1][1] - jtj[0][1] * jtj[1][0]
    se = [sigma * math.sqrt(jtj[1][1] / det), sigma * math.sqrt(jtj[0][0] / det)]
Tact = end + dt - lead  # joulecast's active window: to the first idle sample after the run
print(json.dumps({"se_kc": se[0], "se_km": se[1], "se_idle": sigma / math.sqrt(n0), "idle_samples": n0,
                  "samples": len(rows), "u_mean": gint / (G * Tact), "um_mean": mint / (G * Tact),
                  "active_s": Tact}))
