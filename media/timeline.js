// The timeline panel's script (src/tasks/timelinePanel.ts makes the page). It draws what the extension posts — bars
// already laid out (src/tasks/timelineModel.ts), words already translated — and sends back what a person asks for:
// open a bar, failed first. No network, no framework; loaded with the page's nonce.
// @ts-check
(function () {
  'use strict';
  // @ts-expect-error: given by the webview host
  const vscode = acquireVsCodeApi();
  const root = /** @type {HTMLElement} */ (document.getElementById('root'));
  /** @type {any} */
  let data;
  let showTable = false;
  let focusedKey = '';

  /** @param {string} tag @param {string} [cls] @param {string} [text] */
  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** @param {string} id @param {string} label @param {boolean} pressed @param {(v: boolean) => void} onToggle */
  function toggle(id, label, pressed, onToggle) {
    const button = el('button', 'toggle', label);
    button.dataset.toggle = id;
    button.setAttribute('aria-pressed', String(pressed));
    button.addEventListener('click', () => onToggle(button.getAttribute('aria-pressed') !== 'true'));
    return button;
  }

  function open(/** @type {string} */ key) {
    vscode.postMessage({ type: 'open', key });
  }

  function render() {
    const words = data.words;
    // What had the focus gets it back once redrawn (a refresh, a page of children, a toggle).
    const active = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const refocus = active && root.contains(active) ? (active.dataset.key ? '[data-key="' + CSS.escape(active.dataset.key) + '"]' : active.dataset.toggle ? '[data-toggle="' + active.dataset.toggle + '"]' : '') : '';
    if (active && active.dataset.key) focusedKey = active.dataset.key;
    root.replaceChildren();
    const header = el('header');
    header.append(el('h1', 'title', data.title), el('p', 'summary', data.summary));
    header.querySelector('.summary')?.setAttribute('aria-live', 'polite');
    const tools = el('div', 'tools');
    tools.append(
      toggle('failedFirst', words.failedFirst, data.failedFirst, (value) => vscode.postMessage({ type: 'failedFirst', value })),
      toggle('table', words.showTable, showTable, (value) => {
        showTable = value;
        vscode.setState({ showTable });
        render();
      }),
    );
    header.append(tools);
    root.append(header);
    if (!data.bars.length) {
      root.append(el('p', 'empty', data.loading ? data.summary : words.empty));
      return;
    }
    root.append(showTable ? table(words) : chart(words));
    const again = refocus ? root.querySelector(refocus) : null;
    if (again instanceof HTMLElement) again.focus();
  }

  /** The bars: one row each, a name and a track; one bar in the tab order at a time, arrows move between them. */
  function chart(/** @type {any} */ words) {
    const wrap = el('div', 'chart');
    const axis = el('div', 'axis');
    axis.setAttribute('aria-hidden', 'true');
    axis.append(el('span', 'axis-name', data.axis.start || ''));
    const scale = el('div', 'axis-track');
    for (const tick of data.axis.ticks) {
      const mark = el('span', 'tick', tick.label);
      mark.style.left = tick.left + '%';
      scale.append(mark);
    }
    axis.append(scale);
    wrap.append(axis);
    const list = el('div', 'rows');
    list.setAttribute('role', 'list');
    list.setAttribute('aria-label', words.chart);
    /** @type {HTMLElement[]} */
    const bars = [];
    data.bars.forEach((/** @type {any} */ b) => {
      const row = el('div', 'row');
      row.setAttribute('role', 'listitem');
      const name = el('span', 'name', b.label);
      name.title = b.label;
      name.setAttribute('aria-hidden', 'true');
      const track = el('div', 'track');
      const bar = el('button', 'bar tone-' + b.tone + (b.retried ? ' retried' : '') + (b.open ? ' open' : '') + (b.left === undefined ? ' unplaced' : ''));
      bar.dataset.key = b.key;
      bar.tabIndex = -1;
      bar.setAttribute('aria-label', b.tooltip + (b.opens ? '. ' + words.opensHint : ''));
      if (b.left !== undefined) {
        bar.style.left = b.left + '%';
        bar.style.width = b.width + '%';
      }
      const text = [b.instance, b.retried ? '↻' : ''].filter(Boolean).join(' ');
      if (text) bar.append(el('span', 'bar-text', text));
      bar.addEventListener('click', () => b.opens && open(b.key));
      bar.addEventListener('mouseenter', () => tip(bar, b));
      bar.addEventListener('mouseleave', hideTip);
      bar.addEventListener('focus', () => {
        focusedKey = b.key;
        tip(bar, b);
      });
      bar.addEventListener('blur', hideTip);
      track.append(bar);
      row.append(name, track);
      list.append(row);
      bars.push(bar);
    });
    const current = bars.find((b) => b.dataset.key === focusedKey) || bars[0];
    current.tabIndex = 0;
    list.addEventListener('keydown', (event) => {
      const at = bars.indexOf(/** @type {HTMLElement} */ (event.target));
      if (at < 0) return;
      const next = { ArrowDown: at + 1, ArrowRight: at + 1, ArrowUp: at - 1, ArrowLeft: at - 1, Home: 0, End: bars.length - 1, PageDown: at + 10, PageUp: at - 10 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      const to = bars[Math.max(0, Math.min(bars.length - 1, next))];
      bars[at].tabIndex = -1;
      to.tabIndex = 0;
      to.focus();
      to.scrollIntoView({ block: 'nearest' });
    });
    wrap.append(list);
    return wrap;
  }

  /** The same rows as a table: what a screen reader reads best. */
  function table(/** @type {any} */ words) {
    const t = el('table', 'table');
    t.append(el('caption', undefined, words.caption));
    const head = el('tr');
    for (const h of [words.name, words.status, words.start, words.end, words.duration, words.instance, words.retried]) {
      const th = el('th', undefined, h);
      th.setAttribute('scope', 'col');
      head.append(th);
    }
    const thead = el('thead');
    thead.append(head);
    const body = el('tbody');
    for (const b of data.bars) {
      const tr = el('tr');
      const th = el('th');
      th.setAttribute('scope', 'row');
      if (b.opens) {
        const link = el('button', 'link', b.label);
        link.dataset.key = b.key;
        link.addEventListener('click', () => open(b.key));
        th.append(link);
      } else th.textContent = b.label;
      tr.append(th);
      for (const v of [b.statusWord, b.start, b.end, b.duration, b.instance, b.attempt || (b.retried ? words.yes : '')]) tr.append(el('td', undefined, v || ''));
      body.append(tr);
    }
    t.append(thead, body);
    return t;
  }

  const tipBox = el('div', 'tip');
  tipBox.setAttribute('role', 'tooltip');
  tipBox.hidden = true;
  document.body.append(tipBox);

  function tip(/** @type {HTMLElement} */ bar, /** @type {any} */ b) {
    tipBox.replaceChildren(el('strong', undefined, b.label), el('div', undefined, [b.statusWord, b.duration, b.instance, b.attempt].filter(Boolean).join(' · ')));
    tipBox.hidden = false;
    const r = bar.getBoundingClientRect();
    tipBox.style.left = Math.max(4, Math.min(window.innerWidth - tipBox.offsetWidth - 4, r.left)) + 'px';
    tipBox.style.top = (r.bottom + 4 + tipBox.offsetHeight > window.innerHeight ? r.top - tipBox.offsetHeight - 4 : r.bottom + 4) + window.scrollY + 'px';
  }

  function hideTip() {
    tipBox.hidden = true;
  }

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message && message.type === 'data') {
      data = message.data;
      render();
    }
  });
  const saved = vscode.getState();
  showTable = !!(saved && saved.showTable);
  vscode.postMessage({ type: 'ready' });
})();
