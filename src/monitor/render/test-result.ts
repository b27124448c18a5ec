// One test run on a page: passed or failed and how, the failing tests first (as the output named
// them), the counts, the output excerpt the state kept, and the full log one click away.
import { testPassed } from '../../loop/stop-conditions.js';
import type { TestRecord } from '../../state/run-state.js';
import { html, type Html } from '../html.js';
import { badge, count, duration } from './common.js';

/** Failing tests listed at most (the state keeps up to its own cap). */
const LISTED = 50;

/**
 * A test record: headline, failing tests, counts, the kept output (open when the tests failed and
 * their output named no failing test), and a link to the whole log.
 */
export function renderTestResult(t: TestRecord, logHref: string | null, title = 'tests'): Html {
  const passed = testPassed(t);
  const how = t.timed_out
    ? `timed out after ${duration(t.duration_ms)}`
    : `exit ${t.exit_code} after ${duration(t.duration_ms)}`;
  const scope =
    t.scope === 'focused'
      ? 'the previously failing tests alone, run first (the whole suite did not run)'
      : t.focus
        ? `the whole suite, after the previously failing tests alone passed in ${duration(t.focus.duration_ms)}`
        : null;
  const failing = t.parsed?.failing ?? [];
  const counts = (t.parsed?.counts ?? []).filter((c) => c.passed !== null || c.failed !== null);
  const output = [t.stdout_tail, t.stderr_tail].filter((s) => s.trim() !== '').join('\n');
  return html`<div class="test ${passed ? 'test-pass' : 'test-fail'}">
    <div class="test-head">
      ${badge(passed ? 'passed' : 'failed')} <span class="what">${title}</span> <code>${t.command}</code>
      <span class="muted">${how}</span>${scope ? html` <span class="muted">(${scope})</span>` : ''}
    </div>
    ${
      failing.length > 0
        ? html`<ol class="failing" aria-label="failing tests">
            ${failing
              .slice(0, LISTED)
              .map(
                (f) =>
                  html`<li>
                    <code class="test-id">${f.package ? `${f.package} ${f.id}` : f.id}</code>${
                      f.file ? html` <span class="muted">${f.file}${f.line === null ? '' : `:${f.line}`}</span>` : ''
                    }${f.scope === 'test' ? '' : html` <span class="muted">(the whole ${f.scope})</span>`}
                  </li>`,
              )}${failing.length > LISTED ? html`<li class="muted">and ${failing.length - LISTED} more</li>` : ''}
          </ol>`
        : ''
    }
    ${
      counts.length > 0
        ? html`<div class="counts">
            ${counts.map(
              (c) =>
                html`<span
                  >${c.runner}:
                  ${c.failed === null ? '' : `${c.failed} failed`}${c.failed !== null && c.passed !== null ? ', ' : ''}${
                    c.passed === null ? '' : `${c.passed} passed`
                  }</span
                > `,
            )}
          </div>`
        : ''
    }
    ${
      output !== ''
        ? html`<details class="output" ${passed || failing.length > 0 ? '' : html` open`}>
            <summary>
              output kept in the state (${count(t.total_bytes)} bytes
              printed${t.dropped_bytes > 0 ? `, ${count(t.dropped_bytes)} dropped` : ''})
            </summary>
            <pre class="text">${output}</pre>
          </details>`
        : ''
    }
    ${logHref ? html`<a class="log-link" href="${logHref}">full log</a>` : ''}
  </div>`;
}
