/*
 * help.c (cli) - every command's --help page as data (cli_help, cli.h), in the
 * order of `joulecast --help`: the usage and what the command does, where
 * its option rows go (the command's jo_spec, or a printer of its own),
 * and the examples.  main.c prints them all the one way; tools/gen_man.sh
 * makes the man page of that output.
 */
#include "cli/jobopts.h"
#include "cli/lookup.h"

const cli_help help_inspect = {
    "usage: joulecast inspect MODEL.onnx [--json]\n\n"
    "Shows the IR version, producer, opset imports, inputs and outputs\n"
    "(dtype and dims, symbolic names kept), node count per op type,\n"
    "parameters and weight bytes, external data files, functions and\n"
    "subgraphs.  Weight payloads and external data files are never read.\n\n"
    "  --json   the same as JSON (schema: docs/json-schemas.md)\n",
    NULL, NULL, NULL};

const cli_help help_count = {
    "usage: joulecast count [JOB.yaml] MODEL.onnx [options]\n\n"
    "Infers every tensor's shape and counts MACs, FLOPs, special ops\n"
    "(transcendentals), bytes and parameters per node (docs/counting.md).\n"
    "Unknown dims, unsupported ops and data-dependent sizes are listed\n"
    "first and never counted as zero; --batch binds the first dim of every\n"
    "symbolic input, and without it such a dim stays unbound.  A job file\n"
    "(as estimate reads it) gives the model, batch, dims, inputs and op\n"
    "rules; its estimate keys are named in a warning and skipped.\n\n",
    NULL, count_help_rows, NULL};

const cli_help help_estimate = {
    "usage: joulecast estimate [JOB.yaml] [MODEL.onnx] [options]\n\n"
    "Predicts wall time, device-hours, energy (device, host, facility) and\n"
    "emissions of a training or inference job, with a low-central-high range\n"
    "and every assumption named with its source.  A job file holds the same\n"
    "options as YAML keys (docs/job-file.md); options given here override it.\n\n",
    &estimate_spec, NULL,
    "\nexamples:\n"
    "  joulecast estimate models/resnet50.onnx --train --samples 1281167 --epochs 90 \\\n"
    "      --batch 256 --device a100 --count 8 --region US-CA\n"
    "  joulecast estimate --flops 3.14e23 --train --device v100 --count 10000 --region US\n"
    "  joulecast estimate --generate --hf-config llama-3.1-8b.json --prompt-tokens 500 \\\n"
    "      --output-tokens 300 --concurrency 64 --requests 1e7 --device h100 --region US\n"};

const cli_help help_compare = {
    "usage: joulecast compare A.onnx B.onnx ... [JOB.yaml] [options]\n"
    "       joulecast compare --generate A.json B.json|B.onnx ... [options]\n\n"
    "Estimates the same job (workload, device, region) for each model and prints\n"
    "MACs, parameters, wall time, facility energy, emissions and J/sample side by\n"
    "side, then each as a ratio against the first model.  Options are those of\n"
    "`joulecast estimate`; a job file's model (if any) comes first.  With\n"
    "--generate the files are Hugging Face config.json files or ONNX decoder\n"
    "exports, each served as `estimate --generate` serves one (--hf-config, if\n"
    "given, comes first), and\n"
    "the table gives TTFT, inter-token latency, tokens/s per device, J per output\n"
    "token and per request beside the energy and emissions.  A cloud region whose\n"
    "provider sells no instance with the device (or another provider's --host) is\n"
    "refused: the one device/region pair is left out, as sweep leaves such pairs.\n\n",
    &compare_spec, NULL,
    "\nexamples:\n"
    "  joulecast compare models/resnet50.onnx models/resnet18.onnx models/mobilenet_v2.onnx \\\n"
    "      --batch 64 --requests 1000000 --device a100 --region FR\n"
    "  joulecast compare --generate llama-3.1-8b.json mistral-7b.json qwen2.5-7b.json \\\n"
    "      --prompt-tokens 500 --output-tokens 300 --concurrency 64 --requests 1e6 \\\n"
    "      --device h100 --region US\n"};

const cli_help help_sweep = {
    "usage: joulecast sweep [JOB.yaml] [MODEL.onnx] [options]\n\n"
    "Estimates one job over devices x regions x batch sizes x precisions (each a\n"
    "comma list), sorts the entries and marks the Pareto front of wall time against\n"
    "emissions.  Entries that cannot be estimated are listed as skipped with the\n"
    "reason.  Without --devices (or --device) every gpu, tpu and accelerator is\n"
    "swept; without --regions (or --region/--ci) every cloud region.  The other\n"
    "options are those of `joulecast estimate`.\n\n",
    &sweep_spec, NULL,
    "\nexamples:\n"
    "  joulecast sweep models/resnet50.onnx --batch 64 --requests 1000000\n"
    "  joulecast sweep models/bert_base.onnx --dim sequence=128 --batches 8,32,128 \\\n"
    "      --devices a100,h100,l4 --regions aws:all --precisions bf16,fp8 --sort energy\n"
    "  joulecast sweep --generate --hf-config llama-3.1-8b.json --prompt-tokens 500 --output-tokens 300 \\\n"
    "      --devices h100,l40s --counts 1,2 --concurrencies 8,64,256 --weights-list bf16,fp8 --max-itl 50ms\n"};

const cli_help help_hw = {
    "usage: joulecast hw list [--kind gpu|cpu|tpu|accelerator|soc|host] [--vendor V]\n"
    "                         [--form-factor F] [--year Y|Y1-Y2] [--json]\n"
    "       joulecast hw show ID [--json]\n\n"
    "Lists the devices and hosts of the hardware database, or shows one\n"
    "(by id or alias, case-insensitive) with every value, its range, year,\n"
    "source and the file:line:column it comes from; a value computed from\n"
    "published figures is marked (derived) and says how.\n\n",
    NULL, lookup_help, NULL};

const cli_help help_region = {
    "usage: joulecast region list [--provider aws|gcp|azure|...] [--type TYPE] [--json]\n"
    "       joulecast region show CODE [--json]\n\n"
    "Lists the regions of the hardware database with their default grid\n"
    "carbon intensity (gCO2e/kWh), or shows one region (code or alias,\n"
    "case-insensitive) with every dataset's value, year, basis and source,\n"
    "the default and why it was chosen.\n\n",
    NULL, lookup_help, NULL};

const cli_help help_hwdb = {
    "usage: joulecast hwdb check [DIR...] [--alone] [--hwdb DIR]...\n"
    "       joulecast hwdb snapshot [DIR] -o FILE\n"
    "       joulecast hwdb info\n"
    "       joulecast hwdb schema [KIND] [--json]\n\n"
    "Validates a hardware database (schema: docs/hwdb-schema.md) and prints\n"
    "the number of entries of each kind.  Without DIR: the bundled database\n"
    "with the --hwdb and $JOULECAST_HWDB layers.  With DIR (a folder or a\n"
    "single .yaml file): DIR checked as an override layer on top of the\n"
    "bundled database, or as a database of its own with --alone.\n"
    "Every error names file:line:column.  Exit status 5 on an invalid\n"
    "database, 3 when a folder or file cannot be read.\n\n"
    "  --alone      check DIR... without the bundled database\n"
    "  --hwdb DIR   an override layer (repeatable)\n\n"
    "`hwdb snapshot` loads DIR (default: the bundled folder) and writes it\n"
    "to FILE as a snapshot that opens in well under a millisecond instead\n"
    "of the ~20 ms the YAML takes to parse.  FILE is a new path or a regular\n"
    "file (a symlink is kept and its target written; a FIFO, a device or a\n"
    "folder is refused, exit 3; one of DIR's YAML files, exit 2).  Every\n"
    "pointer, count and string of a snapshot is checked when it is opened: a\n"
    "corrupt or forged one is not used.  `make` writes build/hwdb.snap\n"
    "and `make install` share/joulecast/hwdb.snap; runs without --hwdb or\n"
    "$JOULECAST_HWDB layers use the first of $JOULECAST_HWDB_SNAPSHOT\n"
    "(\"off\": none), <exe dir>/hwdb.snap and\n"
    "<exe dir>/../share/joulecast/hwdb.snap while it is fresh (no *.yaml\n"
    "file or folder of it changed: same sizes and modification times),\n"
    "else they parse the YAML.  The numbers are the same either way.\n\n"
    "`hwdb info` prints the bundled folder, the snapshot and whether it is\n"
    "used (or why not), and the time each way of loading takes.\n\n"
    "`hwdb schema` prints the fields of a record kind (\"device\"; default:\n"
    "every kind with a field table) as the loader checks them: key, type,\n"
    "required, range, C member and notes, as Markdown (the tables of\n"
    "docs/hwdb-schema.md) or, with --json, as the document\n"
    "tools/hwdb_fields.json that tools/check_hwdb.py reads.\n",
    NULL, NULL, NULL};

const cli_help help_ga = {
    "usage: joulecast ga --runtime T [--cores N (--cpu MODEL | --tdp-per-core W)]\n"
    "                    [--cpu-usage U] [--gpus N (--gpu MODEL | --gpu-tdp W)]\n"
    "                    [--gpu-usage U] [--memory GB] [--region CODE] [--ci G]\n"
    "                    [--pue P | --platform personal|local|cloud\n"
    "                     --provider gcp|aws|azure|...|other --datacenter NAME]\n"
    "                    [--psf F] [--ga-version 3.0|2.2|2.1|2.0|1.1|1.0]\n"
    "                    [--json] [--hwdb DIR]...\n\n"
    "Reproduces the Green Algorithms calculator (green-algorithms.org,\n"
    "Lannelongue, Grealey and Inouye 2021) from its own tables:\n"
    "  energy = runtime x (cores x W/core x usage + GPUs x W x usage\n"
    "           + memory GB x 0.3725 W/GB) x PUE x PSF\n"
    "  carbon = energy x carbon intensity of the location\n"
    "then lists what that figure leaves out and, when the hardware is in the\n"
    "database with TDP and idle power, joulecast's own estimate beside it.\n\n"
    "  --runtime T        90m, 1.5h, 12h30m, 2d, 1d6h, or hours as a number\n"
    "  --cores N          CPU cores (physical cores, not threads)\n"
    "  --cpu MODEL        the calculator's CPU model (or a hwdb device);\n"
    "                     default \"Any\" (12 W per core)\n"
    "  --tdp-per-core W   CPU power per core instead of a model\n"
    "  --cpu-usage U      0..1, default 1\n"
    "  --gpus N, --gpu MODEL, --gpu-tdp W, --gpu-usage U   the same for GPUs\n"
    "                     (default model \"Any\", 200 W)\n"
    "  --memory GB        memory requested (default 0)\n"
    "  --region CODE      location code of the calculator's CI table (FR,\n"
    "                     US-CA, AU-NSW, ...); default WORLD (475 g/kWh)\n"
    "  --ci G             carbon intensity in gCO2e/kWh, instead of --region\n"
    "  --pue P            PUE (>= 1), instead of the platform's default\n"
    "  --platform KIND    personal (PUE 1), local (default: unknown local\n"
    "                     server, PUE 1.56 in v3.0, 1.67 before), cloud\n"
    "  --provider P       cloud provider (PUE default of the provider)\n"
    "  --datacenter NAME  cloud data centre (its PUE and location)\n"
    "  --psf F            pragmatic scaling factor (times run), default 1\n"
    "  --ga-version V     calculator version (default: latest, 3.0)\n"
    "  --json             the result as JSON\n"
    "  --hwdb DIR         an override layer of the hardware database\n",
    NULL, NULL, NULL};

const cli_help help_statement = {
    "usage: joulecast statement [JOB.yaml] [MODEL.onnx] [estimate options] [--format F]\n\n"
    "Runs the estimate the options describe (as `joulecast estimate` would) and\n"
    "prints a carbon statement to paste into a paper: hardware, device count,\n"
    "hours, energy, PUE, grid intensity with its dataset and year, emissions\n"
    "with their range, method, joulecast version and the command that\n"
    "reproduces it; every figure's source in a footnote.  It says in words\n"
    "what was given and what assumed (the precision, the host, a device alias\n"
    "that picks a variant, the intensity basis).  --format latex writes\n"
    "\\footnote{}s and \\url{}s (load hyperref or url).  --format hf prints\n"
    "the Hugging Face model-card co2_eq_emissions block (emissions in grams; it\n"
    "describes training, so it is refused for inference and --generate).\n"
    "--format sentence prints the figures in one sentence, no footnotes.\n"
    "With --generate (LLM serving) the paragraph also states J per output\n"
    "token, J per request and the prefill share.\n\n",
    &statement_spec, NULL,
    "\nexamples:\n"
    "  joulecast statement docs/examples/resnet50-imagenet.yaml --format latex\n"
    "  joulecast statement --train --params 7e9 --tokens 2e12 --device h100 --count 1024 \\\n"
    "      --region US --format hf\n"
    "  joulecast statement --generate --hf-config llama-3.1-8b.json --prompt-tokens 500 \\\n"
    "      --output-tokens 300 --concurrency 64 --requests 1e7 --device h100 --region US\n"};

const cli_help help_calibrate = {
    "usage: joulecast calibrate MEASUREMENTS.csv|TRACE [JOB.yaml] [MODEL.onnx] [estimate options]\n"
    "                           --out FILE.yaml [--row N] [--date YYYY-MM-DD] [trace options]\n\n"
    "Fits the effective utilisation (MFU) of the device and workload class to a\n"
    "measured run: the value whose roofline prediction gives the measured wall\n"
    "time (or, without a duration, the measured device energy); with both, also\n"
    "the device's energy per FLOP at the run's precision (joules-per-op method).\n"
    "Writes them as an hwdb override layer, every value `measured:` with the\n"
    "file, row and date; `joulecast estimate --hwdb FILE.yaml` then uses them.\n"
    "Prints the prediction error before and after.\n\n"
    "Measurements: CodeCarbon's emissions.csv (duration, gpu_energy or cpu_energy,\n"
    "gpu_count, gpu_model, pue; energies are divided by pue, which CodeCarbon\n"
    "multiplies in), or a CSV with columns among job, model, device, count,\n"
    "hours, device_kwh, avg_watts, date.  The job options describe the measured\n"
    "run (model, batch, samples, epochs, mode); the file's device and count are\n"
    "used when the options give none.\n\n"
    "A power trace (nvidia-smi, dcgmi, Carbontracker, PowerJoular, Scaphandre or a\n"
    "plain timestamp,watts CSV; joulecast help trace) is integrated first: its\n"
    "devices' active window (the idle ends every device shares removed) gives the\n"
    "duration and the device energy; the layer names the trace, its format and\n"
    "its time window.  A trace that logs a utilisation per sample (nvidia-smi\n"
    "utilization.gpu/.memory, dcgmi GPUTL/DRAMA) also fits the device power model:\n"
    "the idle power (mean at 0 % utilisation, into the layer) and the coefficients\n"
    "k_c, k_m (least squares of power against utilisation, written beside it as\n"
    "OUT.power.yaml: give both layers to estimate).  docs/traces.md \"Power fit\".\n\n",
    &calibrate_spec, NULL,
    "\nexample:\n"
    "  joulecast calibrate emissions.csv models/resnet50.onnx --train --batch 256 \\\n"
    "      --samples 1281167 --device a100 --out mylab.yaml\n"
    "  joulecast estimate models/resnet50.onnx --train ... --hwdb mylab.yaml\n"};

const cli_help help_trace = {
    "usage: joulecast trace FILE [--trace-format F] [--scope S] [--gap S] [--idle-w W]\n"
    "                       [--interval S] [--row N] [--json]\n\n"
    "Reads a power trace and integrates it per channel (one GPU, the CPU, the host,\n"
    "a wall meter): trapezoid energy, gaps above a threshold reported and not\n"
    "bridged, duration, average and peak power, average utilisation, the leading\n"
    "and trailing idle phases and the marginal (above-idle) energy.  The trace is\n"
    "streamed: memory does not grow with its length.  Rows that cannot be read\n"
    "are named by line.  Formats and their scopes: docs/traces.md.\n\n",
    NULL, trace_help_rows,
    "  --row N           codecarbon: the data row (default: the last)\n"
    "  --json            JSON output (schema joulecast-trace/1)\n\n"
    "example:\n"
    "  nvidia-smi --query-gpu=timestamp,index,name,power.draw,utilization.gpu \\\n"
    "      --format=csv -lms 1000 > run.csv &\n"
    "  joulecast trace run.csv\n"};

const cli_help help_diff = {
    "usage: joulecast diff OLD.json NEW.json [--max-increase P%] [--on central|high] [--json]\n\n"
    "Compares two outputs of `joulecast estimate --json`: wall time, device-hours,\n"
    "energy (devices, host, facility) and emissions, old, new and relative change,\n"
    "and the settings that differ (device, region, method, ...).\n\n"
    "  --max-increase P%  exit 10 when facility energy or location-based emissions\n"
    "                     rose by more than P percent (e.g. 20%)\n"
    "  --on WHICH         compare the central figures (default) or the high end\n"
    "  --json             JSON output (docs/json-schemas.md \"diff\")\n"
    "\nexample (CI):\n"
    "  joulecast estimate job.yaml --json > new.json\n"
    "  joulecast diff baseline.json new.json --max-increase 20%\n",
    NULL, NULL, NULL};
