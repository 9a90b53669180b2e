/**
 * Fails on user-visible text written as a literal in the portal's code instead of the message catalogue
 * (docs/portal.md#messages). Every `.ts`/`.tsx` file under `web/src` is parsed with the TypeScript compiler
 * (tests, the catalogues themselves and the sign-in page's Amplify dictionaries excepted) and these are
 * reported, with file and line:
 *
 * - JSX text containing a letter (`<h1>Incidentes</h1>`);
 * - a string literal given to a JSX attribute that is not technical (`aria-label="Cerrar"`, `title`,
 *   `placeholder`, `label`, any component prop) — technical ones (`className`, `to`, `type`, `id`, …) are
 *   allowed;
 * - any other string that reads as Spanish: a Spanish letter or sign (á é í ó ú ñ ü ¿ ¡) or a phrase with
 *   a Spanish function word ("No hay registros", "sin datos");
 * - a string given as a user-facing property (`label`, `header`, `title`, `text`, `message`, `hint`, …).
 *
 * Not reported: import paths, the keys given to `t(…)`, Amplify's `I18n.get(…)` dictionary keys (English,
 * the sign-in page's dictionary) and `console.*` messages (for developers, in English).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const WEB_SRC = join(__dirname, '..', '..', '..');

/** Files that are dictionaries or test support, relative to `web/src`. */
const EXCLUDED = [
  /\.test\.tsx?$/,
  /^shared\/lib\/messages\//,
  /^shared\/lib\/test-utils\.tsx$/,
  /^test-setup\.ts$/,
  // The sign-in page's texts: Amplify UI's dictionary and the Cognito error catalogue (docs/portal.md#sign-in).
  /^shared\/lib\/i18n\.ts$/,
  /^shared\/lib\/cognito-errors\.ts$/,
];

/** JSX attributes whose values are not shown to anyone. */
const TECHNICAL_ATTRIBUTES = new Set([
  'className', 'id', 'htmlFor', 'to', 'href', 'type', 'role', 'name', 'key', 'rel', 'target', 'autoComplete',
  'inputMode', 'pattern', 'method', 'lang', 'dir', 'src', 'form', 'accept', 'loading', 'variation', 'size',
  'aria-hidden', 'aria-controls', 'aria-labelledby', 'aria-describedby', 'aria-live', 'aria-current', 'aria-haspopup',
  'aria-sort', 'aria-atomic', 'aria-relevant', 'aria-autocomplete', 'aria-orientation', 'scope', 'colSpan',
  'rowSpan', 'headers', 'enterKeyHint', 'spellCheck', 'autoCapitalize', 'step', 'min', 'max', 'minLength',
  'maxLength', 'wrap', 'direction', 'initialState', 'hideSignUp', 'variant', 'dataKey', 'stroke', 'fill',
  'layout', 'stackId', 'domain', 'unit', 'width', 'height', 'd', 'viewBox', 'xmlns', 'fontSize', 'as', 'kind',
  'tone', 'status', 'severity', 'mode', 'align', 'download', 'mime', 'value', 'defaultValue', 'field',
  'sortKey', 'filename', 'testId', 'strokeWidth', 'strokeDasharray', 'interval', 'tickLine', 'axisLine',
  'textAnchor', 'dominantBaseline', 'cx', 'cy', 'r', 'x', 'y', 'x1', 'x2', 'y1', 'y2', 'points', 'transform',
  'preserveAspectRatio', 'focusable', 'tabIndex', 'hidden', 'path', 'element', 'accessKey', 'datetime', 'dateTime',
  'inputName', 'param', 'paramName', 'storageKey', 'cacheKey', 'fileName', 'group', 'groups', 'placement',
]);

/** Object properties whose string values are shown to users. */
const USER_FACING_PROPERTIES = new Set([
  'label', 'header', 'heading', 'title', 'text', 'message', 'hint', 'description', 'caption', 'placeholder',
  'emptyText', 'empty', 'ariaLabel', 'confirmLabel', 'cancelLabel', 'legend', 'help', 'summary', 'tooltip',
]);

/** A catalogue key (`menu.view`, `enums.severity.high`): translated where it is rendered. */
const CATALOGUE_KEY = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_]+)+$/;

const SPANISH_SIGNS = /[áéíóúñüÁÉÍÓÚÑÜ¿¡]/;
const SPANISH_WORDS = new Set([
  'de', 'del', 'la', 'las', 'el', 'los', 'hay', 'con', 'para', 'por', 'sin', 'una', 'un', 'que', 'se',
  'su', 'sus', 'al', 'y', 'o', 'en', 'ver', 'todos', 'todas', 'desde', 'hasta', 'cerrar', 'volver', 'nuevo',
]);

/** Whether `text` reads as Spanish: a Spanish sign, or two or more words one of which is a Spanish function word. */
export function readsAsSpanish(text: string): boolean {
  if (SPANISH_SIGNS.test(text)) return true;
  const words = text.trim().split(/\s+/);
  return words.length >= 2 && words.some((w) => SPANISH_WORDS.has(w.toLowerCase().replace(/[.,:;!?…"'()]/g, '')));
}

export interface LiteralFinding {
  line: number;
  kind: 'jsx-text' | 'jsx-attribute' | 'spanish-string' | 'user-facing-property';
  text: string;
}

/** The user-visible literals of one source file (see the module's comment for the rules). */
export function findLiterals(fileName: string, source: string): LiteralFinding[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: LiteralFinding[] = [];
  const report = (node: ts.Node, kind: LiteralFinding['kind'], text: string) =>
    found.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, kind, text: text.trim() });

  /** Whether `node` is an argument of `t(…)`, `I18n.get(…)`, `console.*(…)` or an import/export/type position. */
  const exempt = (node: ts.Node): boolean => {
    for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
      if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isImportTypeNode(p) || ts.isLiteralTypeNode(p)) return true;
      if (ts.isCallExpression(p)) {
        const callee = p.expression.getText(sf);
        if (/^(t|i18n\.t|I18n\.get|console\.\w+|import|require)$/.test(callee)) return true;
        break;
      }
      if (ts.isJsxAttribute(p) || ts.isPropertyAssignment(p) || ts.isVariableDeclaration(p) || ts.isBlock(p)) break;
    }
    return false;
  };

  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) {
      if (/\p{L}/u.test(node.text)) report(node, 'jsx-text', node.text);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const text = node.text;
      if (/\p{L}/u.test(text) && !CATALOGUE_KEY.test(text) && !exempt(node)) {
        const parent = node.parent;
        const attribute = ts.isJsxAttribute(parent) ? parent : ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent) ? parent.parent : undefined;
        if (attribute) {
          const name = attribute.name.getText(sf);
          if (!TECHNICAL_ATTRIBUTES.has(name) && !/^data-|ClassName$|Id$|Prefix$/.test(name)) report(node, 'jsx-attribute', `${name}="${text}"`);
        } else if (ts.isJsxExpression(parent) && (ts.isJsxElement(parent.parent) || ts.isJsxFragment(parent.parent))) {
          report(node, 'jsx-text', text);
        } else if (ts.isPropertyAssignment(parent) && parent.initializer === node && USER_FACING_PROPERTIES.has(parent.name.getText(sf))) {
          report(node, 'user-facing-property', `${parent.name.getText(sf)}: '${text}'`);
        } else if (readsAsSpanish(text)) {
          report(node, 'spanish-string', text);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/**
 * Files whose texts are being moved into the catalogue (relative to `web/src`); each leaves this list when it has
 * none. Only the check of the files still listed is skipped.
 */
const NOT_YET_CONVERTED = new Set([
  'features/account/DevicesCard.tsx',
  'features/account/LogoutPage.tsx',
  'features/account/MfaCard.tsx',
  'features/account/PasswordChangePage.tsx',
  'features/account/ProfilePage.tsx',
  'features/account/passwordChange.ts',
  'features/admin/AdminPages.tsx',
  'features/admin/ConfirmDialog.tsx',
  'features/analytics/AnalyticsPage.tsx',
  'features/audit/AuditLogPage.tsx',
  'features/calendar/CalendarPage.tsx',
  'features/dashboard/DashboardPage.tsx',
  'features/devices/DeviceAlarmsPage.tsx',
  'features/devices/DeviceAvailabilityPage.tsx',
  'features/devices/DevicePage.tsx',
  'features/devices/DeviceStatusPage.tsx',
  'features/incidents/IncidentDetailPage.tsx',
  'features/incidents/IncidentListPage.tsx',
  'features/incidents/NewIncidentPage.tsx',
  'features/incidents/filters.ts',
  'features/incidents/validation.ts',
  'features/notifications/NotificationsPanel.tsx',
  'features/office365/Office365Pages.tsx',
  'features/office365/api.ts',
  'features/recommendations/RecommendationsPage.tsx',
  'features/reports/ReportsPage.tsx',
  'features/search/SearchResultsPage.tsx',
  'features/settings/SettingsPage.tsx',
  'features/soc/SocQueuePage.tsx',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('no user-visible literals outside the message catalogue (docs/portal.md#messages)', () => {
  it('finds the kinds of literal it is meant to find (so the check below can fail)', () => {
    const sample = [
      "const COLUMNS = [{ header: 'Estado' }];",
      "export function P() {",
      "  const empty = 'No hay registros';",
      "  return <section aria-label=\"Filtros\" className=\"card\"><h1>Incidentes</h1>{'Cargando'}<Link to=\"/x\">{t('menu.view')}</Link></section>;",
      "}",
      "console.error('[vigia] no hay config');",
      "import { x } from './ñandú';",
      "const label = I18n.get('Account awaiting approval');",
    ].join('\n');
    expect(findLiterals('sample.tsx', sample).map((f) => `${f.kind}:${f.text}`)).toEqual([
      "user-facing-property:header: 'Estado'",
      'spanish-string:No hay registros',
      'jsx-attribute:aria-label="Filtros"',
      'jsx-text:Incidentes',
      'jsx-text:Cargando',
    ]);
    expect(readsAsSpanish('Sin datos')).toBe(true);
    expect(readsAsSpanish('Content-Type')).toBe(false);
    expect(readsAsSpanish('no-store')).toBe(false);
  });

  it('the portal code has none: every text is in the catalogue', () => {
    const findings = sourceFiles(WEB_SRC).flatMap((path) => {
      const rel = relative(WEB_SRC, path).split('\\').join('/');
      if (EXCLUDED.some((re) => re.test(rel)) || NOT_YET_CONVERTED.has(rel)) return [];
      return findLiterals(rel, readFileSync(path, 'utf8')).map((f) => `${rel}:${f.line} ${f.kind} ${f.text}`);
    });
    expect(findings.length, `literals to move into the catalogue:\n${findings.join('\n')}`).toBe(0);
  });
});
