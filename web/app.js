/*
 * app.js - the page's script: loads joulecast.wasm (the C library built by
 * `make web`), turns the form and the URL's parameters into the library's
 * key/value pairs, and shows what the library answers.  Every figure is
 * the library's: the report is the HTML `joulecast estimate --html`
 * writes, the downloads are its JSON, its statement and its command line
 * (jcw_run in web/jc_wasm.c calls the src/bind/ entry points the CLI's
 * options and the Python package map to).  Nothing here computes one.
 */
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $('form');
  let jc = null;            // the emscripten module
  let pending = 0;          // the debounce timer
  let last = null;          // the request last shown: {cmd, pairs}
  let configPath = '';      // the hf-config file the request names
  // the bundled config the "HF config.json" source opens on
  const DEFAULT_CONFIG = 'configs/llama-3.1-8b.json';
  const params = new URLSearchParams(location.search);
  const wantJson = params.get('json') === '1';

  /* ---- the module ------------------------------------------------------- */

  function decode(b64) {
    const bin = atob(b64);
    const u = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
    return u;
  }

  // From file:// the browser fetches nothing beside the page, so the module
  // comes as a script (joulecast-wasm.js, base64); from a web host, as
  // joulecast.wasm itself.
  function moduleBytes() {
    const viaScript = () => new Promise((resolve, reject) => {
      if (window.JOULECAST_WASM) return resolve(decode(window.JOULECAST_WASM));
      const s = document.createElement('script');
      s.src = 'joulecast-wasm.js';
      s.onload = () => resolve(decode(window.JOULECAST_WASM));
      s.onerror = () => reject(new Error('cannot load joulecast-wasm.js beside the page (run make web)'));
      document.head.appendChild(s);
    });
    if (location.protocol === 'file:') return viaScript();
    return fetch('joulecast.wasm')
      .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(r.statusText))))
      .catch(viaScript);
  }

  function start() {
    return moduleBytes().then((bytes) => createJoulecast({
      instantiateWasm(imports, done) {
        WebAssembly.instantiate(bytes, imports).then((r) => done(r.instance, r.module));
        return {};
      },
      print: () => {},
      printErr: () => {},
    }));
  }

  /* The library's answer for one command: {status, status_name, message,
   * file, line, col, node, output}. */
  function run(cmd, pairs) {
    const p = jc.ccall('jcw_run', 'number', ['string', 'string'], [cmd, JSON.stringify(pairs)]);
    if (!p) return {status: -1, status_name: 'out of memory', message: 'out of memory', output: null};
    const env = JSON.parse(jc.UTF8ToString(p));
    jc._jcw_free(p);
    return env;
  }

  function failure(env) {
    let where = env.file || '';
    if (where && env.line) where += ':' + env.line + (env.col ? ':' + env.col : '');
    if (env.node) where += (where ? ', ' : '') + 'node ' + env.node;
    return env.status_name + ': ' + env.message + (where && env.message.indexOf(where) < 0 ? ' (' + where + ')' : '');
  }

  /* ---- the pickers, from the library's own listings --------------------- */

  // a <datalist> from a listing command's JSON array (key), one option an entry
  function fillList(id, cmd, key, value, label) {
    const env = run(cmd, []);
    if (env.status) return;
    const dl = $(id);
    for (const x of JSON.parse(env.output)[key]) {
      const o = document.createElement('option');
      o.value = value(x);
      o.label = label(x);
      dl.appendChild(o);
    }
  }

  function fillLists() {
    fillList('devices', 'hw', 'devices', (d) => d.id,
             (d) => d.name + (d.variant ? ' (' + d.variant + ')' : '') + ' - ' + d.kind);
    fillList('regions', 'region', 'regions', (r) => r.code,
             (r) => r.name + ' - ' + r.type + (r.provider ? ' ' + r.provider : ''));
    const models = jc.FS.readdir('/models').filter((f) => f.endsWith('.onnx')).sort();
    for (const f of models) addModel('models/' + f, f);
    if (models.includes('resnet50.onnx')) $('bundled').value = 'models/resnet50.onnx';
    const sel = $('bundled-config');
    sel.appendChild(new Option('(paste below, or pick one)', ''));
    for (const f of jc.FS.readdir('/configs').filter((x) => x.endsWith('.json')).sort())
      sel.appendChild(new Option(f, 'configs/' + f));
  }

  function addModel(path, label) {
    for (const id of ['bundled', 'compare-models-list']) {
      const sel = $(id);
      if ([...sel.options].some((o) => o.value === path)) continue;
      sel.appendChild(new Option(label, path));
    }
  }

  /* ---- form <-> pairs ---------------------------------------------------- */

  const val = (id) => $(id).value.trim();
  const source = () => form.querySelector('input[name=source]:checked').value;

  // The job's size as the CLI takes it, by model source and mode: [key,
  // field id] pairs (joulecast help estimate).  A mode a source lacks is
  // not offered: an HF config is read by the serving model (generation) or
  // by the training step model, which counts tokens (--tokens D), not
  // samples; --params takes tokens, or serving's prompt and output tokens.
  const GEN = [['requests', 'gen-requests'], ['prompt-tokens', 'prompt-tokens'],
               ['output-tokens', 'output-tokens'], ['concurrency', 'concurrency']];
  const JOB_FIELDS = {
    onnx: {inference: [['requests', 'requests']], training: [['samples', 'samples'], ['epochs', 'epochs']],
           generation: GEN},
    config: {training: [['tokens', 'tokens']], generation: GEN},
    params: {inference: [['tokens', 'tokens']], training: [['tokens', 'tokens']], generation: GEN},
  };
  const jobFields = () => JOB_FIELDS[source()][val('mode')] || [];

  // Each source keeps the mode last chosen with it, first its usual job:
  // an ONNX model's inference, a config's serving, parameters x tokens'
  // training; the modes it lacks are disabled.  A URL's mode is kept as
  // given (the library refuses a wrong one, naming it).
  const modeOf = {onnx: 'inference', config: 'generation', params: 'training'};
  function fitMode(moved) {
    const modes = JOB_FIELDS[source()];
    for (const o of $('mode').options) o.disabled = !modes[o.value];
    if (moved) $('mode').value = modeOf[source()];
    else modeOf[source()] = val('mode');
  }

  function showParts() {
    const src = source();
    for (const el of form.querySelectorAll('[data-source]')) el.hidden = el.dataset.source !== src;
    const shown = new Set(jobFields().map((f) => f[1]));
    for (const input of $('job-fields').querySelectorAll('input'))
      input.closest('label').hidden = !shown.has(input.id);
    const kind = val('compare-kind');
    $('compare-models').hidden = kind !== 'models';
    $('compare-devices').hidden = kind !== 'devices';
  }

  // The pairs of the request the form describes, in the CLI's order; the
  // library checks them (an option with no effect is refused there).
  function request() {
    const pairs = [];
    const put = (k, id) => { const v = val(id); if (v) pairs.push([k, v]); };
    const src = source(), mode = val('mode');
    if (src === 'onnx' && val('bundled')) pairs.push(['model', val('bundled')]);
    if (src === 'config' && configPath) pairs.push(['hf-config', configPath]);
    if (src === 'params') put('params', 'params');
    pairs.push(['mode', mode]);
    put('batch', 'batch');
    for (const [k, id] of jobFields()) put(k, id);
    put('precision', 'precision');
    put('runtime', 'runtime');
    const kind = val('compare-kind');
    if (kind !== 'devices') put('device', 'device');
    put('count', 'count');
    put('region', 'region');
    put('pue', 'pue');
    for (const k of ['price', 'electricity-price', 'currency', 'wue', 'grid-water']) put(k, k);   // issue 45
    if ($('sensitivity').checked) pairs.push(['sensitivity', 'true']);
    for (const line of $('more').value.split('\n')) {
      const t = line.trim(), eq = t.indexOf('=');
      if (t) pairs.push(eq < 0 ? [t, 'true'] : [t.slice(0, eq).trim(), t.slice(eq + 1).trim()]);
    }
    if (kind === 'models') {
      const more = [...$('compare-models-list').selectedOptions].map((o) => o.value);
      const first = pairs.findIndex((p) => p[0] === 'model' || p[0] === 'hf-config');
      const rest = more.filter((m) => !pairs.some((p) => p[1] === m)).map((m) => ['model', m]);
      pairs.splice(first < 0 ? 0 : first + 1, 0, ...rest);
      return {cmd: 'compare', pairs};
    }
    if (kind === 'devices') {
      const list = [val('device')].concat(val('compare-devices-list').split(',').map((s) => s.trim()))
        .filter((s, i, a) => s && a.indexOf(s) === i);
      pairs.push(['devices', list.join(',')]);
      return {cmd: 'sweep', pairs};
    }
    return {cmd: 'estimate', pairs};
  }

  // The URL's parameters into the form; those it has no field for are
  // kept as pairs (the library refuses an unknown one, naming it).
  const FIELD = {device: 'device', count: 'count', region: 'region', pue: 'pue', batch: 'batch',
                 samples: 'samples', epochs: 'epochs', precision: 'precision', runtime: 'runtime',
                 params: 'params', tokens: 'tokens', 'prompt-tokens': 'prompt-tokens',
                 'output-tokens': 'output-tokens', concurrency: 'concurrency', price: 'price',
                 'electricity-price': 'electricity-price', currency: 'currency', wue: 'wue', 'grid-water': 'grid-water'};
  function fromUrl() {
    const models = [], extra = [];
    let mode = '';
    for (const [k, v] of params) {
      if (k === 'json') continue;
      if (k === 'model') models.push(v);
      else if (k === 'mode') mode = v;
      else if (k === 'train' || k === 'infer' || k === 'generate') {
        if (v !== 'false' && v !== '0') mode = {train: 'training', infer: 'inference', generate: 'generation'}[k];
      } else if (k === 'hf-config') { configPath = v; setSource('config'); showConfig(v); }
      else if (k === 'requests') { $('requests').value = v; $('gen-requests').value = v; }
      else if (k === 'devices') {
        const list = v.split(',').map((s) => s.trim()).filter(Boolean);
        $('compare-kind').value = 'devices';
        if (list.length) $('device').value = list[0];
        $('compare-devices-list').value = list.slice(1).join(',');
      } else if (k === 'sensitivity') $('sensitivity').checked = v !== 'false' && v !== '0';
      else if (FIELD[k]) $(FIELD[k]).value = v;
      else extra.push([k, v]);
    }
    $('more').value = extra.map((p) => p[0] + '=' + p[1]).join('\n');
    if (params.has('params')) setSource('params');
    if (models.length) {
      for (const m of models) addModel(m, m);
      $('bundled').value = models[0];
      setSource('onnx');
    }
    if (models.length > 1) {
      $('compare-kind').value = 'models';
      for (const o of $('compare-models-list').options) o.selected = models.slice(1).includes(o.value);
    }
    if (mode) $('mode').value = mode;
    else if (params.has('hf-config')) $('mode').value = 'generation';
  }

  function setSource(s) {
    form.querySelector('input[name=source][value="' + s + '"]').checked = true;
  }

  function showConfig(path) {
    try { $('hfconfig').value = jc.FS.readFile('/' + path, {encoding: 'utf8'}); } catch (e) { /* not bundled */ }
    $('bundled-config').value = path.startsWith('configs/') ? path : '';
  }

  /* ---- the result --------------------------------------------------------- */

  // The report's page is shown in a shadow root: its own styles, none of
  // this page's; its :root and body rules apply to the host.
  function showReport(html) {
    const host = $('report');
    const root = host.shadowRoot || host.attachShadow({mode: 'open'});
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const css = [...doc.querySelectorAll('style')].map((s) => s.textContent).join('\n')
      .replace(/:root\b/g, ':host').replace(/(^|[}\s,])body(?=[\s{,])/g, '$1.jc-body');
    root.innerHTML = '<style>:host{display:block}' + css + '</style><div class="jc-body">' + doc.body.innerHTML + '</div>';
    // what the report holds, on the light DOM (tests/web.sh reads it)
    host.dataset.cards = root.querySelectorAll('.card').length;
    host.dataset.charts = root.querySelectorAll('svg').length;
  }

  // What the form still lacks before there is a request: the model of
  // its source (a prompt, not an error: nothing was asked yet), or ''.
  function missing() {
    const src = source();
    if (src === 'onnx' && !val('bundled')) return 'Drop an .onnx file, or pick a bundled model.';
    if (src === 'config' && !configPath) return 'Paste a Hugging Face config.json, or pick a bundled one.';
    if (src === 'params' && !val('params')) return 'Give the parameter count.';
    return '';
  }

  // No answer to show: the report, its downloads and its JSON go, so that
  // nothing of an earlier request stays beside the message.
  function clearResult(text, cls, state) {
    const host = $('report');
    if (host.shadowRoot) host.shadowRoot.innerHTML = '';
    host.dataset.cards = host.dataset.charts = 0;
    $('downloads').hidden = true;
    $('command').textContent = '';
    $('status').textContent = text;
    $('status').className = cls;
    last = null;
    answered(state);
  }

  // <body data-answers>: how many times the page has answered (a request,
  // an error or a prompt for input); data-pending while an update waits
  // for its debounce (automation waits until it is gone).
  function answered(state) {
    document.body.dataset.state = state;
    document.body.dataset.answers = 1 + Number(document.body.dataset.answers || 0);
  }

  function compute() {
    pending = 0;
    delete document.body.dataset.pending;
    if (!jc) return;
    const t0 = performance.now();
    const want = missing();
    if (want) {
      clearResult(want, 'wait', 'input');
      if (wantJson) showJson('', '');
      return;
    }
    const rq = request();
    const status = $('status');
    const page = run(rq.cmd, rq.pairs.concat([['html', 'true']]));
    if (page.status) {
      if (wantJson) showJson(JSON.stringify(page), page.status, '');
      clearResult(failure(page), 'error', 'error');
      return;
    }
    showReport(page.output);
    last = rq;
    const ms = Math.round(performance.now() - t0);
    const cmd = run('command', [['command', rq.cmd]].concat(rq.pairs));
    $('command').textContent = cmd.status ? '' : cmd.output;
    $('downloads').hidden = false;
    status.className = '';
    status.textContent = 'Estimated in ' + ms + ' ms, in this page (joulecast ' + rq.cmd + ').';
    status.dataset.ms = ms;
    if (wantJson) {
      const doc = run(rq.cmd, rq.pairs);
      showJson(doc.status ? JSON.stringify(doc) : doc.output, doc.status, cmd.output);
    }
    if (!wantJson) history.replaceState(null, '', '?' + urlOf(rq));
    answered('ready');   // automation waits for it
  }

  function showJson(text, st, command) {
    const pre = $('result');
    pre.textContent = text;
    pre.dataset.status = st;
    if (command !== undefined) pre.dataset.command = command;
    pre.hidden = false;
  }

  function urlOf(rq) {
    const u = new URLSearchParams();
    for (const [k, v] of rq.pairs) {
      if (k === 'hf-config' && v.startsWith('input/')) continue;   // not in the page's files
      if (k === 'model' && v.startsWith('input/')) continue;
      u.append(k, v);
    }
    return u.toString();
  }

  function schedule() {
    showParts();
    if (pending) clearTimeout(pending);
    pending = setTimeout(compute, 150);
    document.body.dataset.pending = '1';
  }

  /* ---- downloads ---------------------------------------------------------- */

  function download(kind) {
    if (!last) return;
    let env, name, type = 'text/plain';
    if (kind === 'json') {
      env = run(last.cmd, last.pairs); name = 'joulecast-' + last.cmd + '.json'; type = 'application/json';
    } else if (kind === 'command') {
      env = run('command', [['command', last.cmd]].concat(last.pairs)); name = 'joulecast-command.sh';
    } else {
      // the statement of the one estimate (the first model of a compare)
      const pairs = last.pairs.filter((p) => p[0] !== 'devices');
      const first = pairs.findIndex((p) => p[0] === 'model');
      const one = pairs.filter((p, i) => p[0] !== 'model' || i === first);
      if (last.cmd === 'sweep') one.push(['device', val('device')]);
      env = run('statement', one.concat([['format', kind]]));
      name = 'joulecast-statement.' + {markdown: 'md', latex: 'tex', hf: 'yaml'}[kind];
    }
    if (env.status) { $('status').textContent = failure(env); $('status').className = 'error'; return; }
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([env.output + (kind === 'command' ? '\n' : '')], {type}));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }

  /* ---- a dropped or chosen ONNX file -------------------------------------- */

  function takeFile(file) {
    if (!file) return;
    const name = file.name.replace(/[^A-Za-z0-9._-]/g, '_') || 'model.onnx';
    const t0 = performance.now();
    file.arrayBuffer().then((buf) => {
      try { jc.FS.mkdir('/input'); } catch (e) { /* exists */ }
      jc.FS.writeFile('/input/' + name, new Uint8Array(buf));
      addModel('input/' + name, name + ' (yours)');
      $('bundled').value = 'input/' + name;
      setSource('onnx');
      showParts();
      compute();
      $('status').dataset.dropMs = Math.round(performance.now() - t0);
    });
  }

  function wire() {
    form.addEventListener('input', (e) => {
      if (e.target.id === 'hfconfig') {
        try { jc.FS.mkdir('/input'); } catch (x) { /* exists */ }
        jc.FS.writeFile('/input/config.json', $('hfconfig').value);
        configPath = $('hfconfig').value.trim() ? 'input/config.json' : '';
        $('bundled-config').value = '';
      }
      schedule();
    });
    form.addEventListener('change', (e) => {
      if (e.target.id === 'bundled-config') {
        configPath = e.target.value;
        if (configPath) showConfig(configPath);
        else $('hfconfig').value = '';
      }
      if (e.target.name === 'source') fitMode(true);
      if (e.target.id === 'mode') modeOf[source()] = val('mode');
      if (e.target.name === 'source' && source() === 'config' && !configPath) {
        const first = $('bundled-config').options[1];
        const pick = [...$('bundled-config').options].find((o) => o.value === DEFAULT_CONFIG) || first;
        if (pick) { configPath = pick.value; showConfig(configPath); }
      }
      schedule();
    });
    form.addEventListener('submit', (e) => { e.preventDefault(); compute(); });
    const drop = $('drop');
    drop.addEventListener('click', () => $('file').click());
    drop.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); $('file').click(); }
    });
    $('file').addEventListener('change', (e) => takeFile(e.target.files[0]));
    for (const ev of ['dragenter', 'dragover']) {
      drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add('over'); });
    }
    drop.addEventListener('dragleave', () => drop.classList.remove('over'));
    drop.addEventListener('drop', (e) => {
      e.preventDefault();
      drop.classList.remove('over');
      takeFile(e.dataTransfer.files[0]);
    });
    for (const b of document.querySelectorAll('[data-dl]'))
      b.addEventListener('click', () => download(b.dataset.dl));
  }

  start().then((m) => {
    jc = m;
    window.joulecastRun = run;   // for the console, and tests/web.sh
    window.joulecastTakeFile = takeFile;
    fillLists();
    fromUrl();
    fitMode(false);
    showParts();
    wire();
    compute();
  }).catch((e) => {
    $('status').textContent = 'The WebAssembly module did not load: ' + e.message;
    $('status').className = 'error';
    if (wantJson) showJson(JSON.stringify({status: -1, message: String(e.message)}), -1);
    document.body.dataset.state = 'error';
  });
})();
