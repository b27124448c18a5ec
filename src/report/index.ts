// Reports: PR_SUMMARY.md, run lines, test logs, and the sanitiser every report goes through.
export * from './sanitize.js';
export * from './markdown.js';
export * from './risk.js';
export * from './pr-summary.js';
export * from './run-line.js';
export * from './test-log.js';
