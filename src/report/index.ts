// Reports: PR_SUMMARY.md, its risk line and the run lines (the text helpers they use are in src/text/).
export * from './risk.js';
export * from './pr-summary.js';
export * from './run-line.js';
