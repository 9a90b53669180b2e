/**
 * The scanner behind `no-literals.test.ts` (docs/portal.md#messages): finds user-visible text written as a
 * literal in the portal's code instead of the message catalogue. Test support only: nothing in the portal
 * imports it, so it is never bundled.
 *
 * Reported, with file and line:
 * - JSX text containing a letter (`<h1>Incidentes</h1>`);
 * - a string literal given to a JSX attribute that is not technical (`aria-label="Cerrar"`, `title`,
 *   `placeholder`, `label`, any component prop) — technical ones (`className`, `to`, `type`, `id`, …) are
 *   allowed;
 * - any other string that reads as Spanish: a Spanish letter or sign (á é í ó ú ñ ü ¿ ¡) or a phrase with
 *   a Spanish function word ("No hay registros", "sin datos");
 * - a string given as a user-facing property (`label`, `header`, `title`, `text`, `message`, `hint`, …).
 *
 * Not reported: a value compared with `===` / `!==` or in a `case` (a key name, an enum value), a line with a `literal-ok: <reason>` comment (a brand name, a data value), import paths, catalogue keys (`menu.view`), the keys given to `t(…)` / `msg(…)`, Amplify's
 * `I18n.get(…)` dictionary keys (English, the sign-in page's dictionary) and `console.*` messages (for
 * developers, in English).
 */
import ts from 'typescript';

/** Files that are dictionaries or test support, relative to `web/src`. */
export const EXCLUDED = [
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
  'aria-hidden', 'aria-modal', 'backTo', 'aria-controls', 'aria-labelledby', 'aria-describedby', 'aria-live', 'aria-current', 'aria-haspopup',
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
  'label', 'header', 'heading', 'title', 'text', 'hint', 'description', 'caption', 'placeholder',
  'emptyText', 'empty', 'ariaLabel', 'confirmLabel', 'cancelLabel', 'legend', 'help', 'summary', 'tooltip',
]);

/** A catalogue key (`menu.view`, `enums.severity.high`): translated where it is rendered. */
const CATALOGUE_KEY = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9_]+)+$/;

const SPANISH_SIGNS = /[áéíóúñüÁÉÍÓÚÑÜ¿¡]/;
const SPANISH_WORDS = new Set([
  'de', 'del', 'la', 'las', 'el', 'los', 'hay', 'con', 'para', 'por', 'sin', 'una', 'un', 'que', 'se',
  'su', 'sus', 'al', 'y', 'o', 'en', 'ver', 'todos', 'todas', 'desde', 'hasta', 'cerrar', 'volver', 'nuevo',
]);

/**
 * A label-like text: a capitalised word, optionally followed by lower-case words or acronyms and a colon ("Estado",
 * "Alarmas abiertas", "Cliente:", "Vence SLA", "Acceso SOC concedido").
 */
const LABEL_LIKE = /^[A-ZÁÉÍÓÚÑ][a-záéíóúñü]+( [a-záéíóúñü0-9()%]+| [A-Z]{2,5})*:?$/;

/**
 * Whether `text` reads as Spanish (or as a UI label): a Spanish sign, two or more words one of which is a
 * Spanish function word, or a label-like text (a capitalised word, then lower-case words).
 */
export function readsAsSpanish(text: string): boolean {
  if (SPANISH_SIGNS.test(text) || LABEL_LIKE.test(text.trim())) return true;
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
        if (/^(t|msg|i18n\.t|I18n\.get|console\.\w+|import|require)$/.test(callee)) return true;
        break;
      }
      if (ts.isJsxAttribute(p) || ts.isPropertyAssignment(p) || ts.isVariableDeclaration(p) || ts.isBlock(p)) break;
    }
    return false;
  };

  const lines = source.split('\n');
  /** A literal on a line marked `literal-ok: <reason>` (a comment) is data or a name, not a UI text. */
  const allowed = (node: ts.Node): boolean => /literal-ok:/.test(lines[sf.getLineAndCharacterOfPosition(node.getStart(sf)).line] ?? '');
  const visit = (node: ts.Node): void => {
    if (allowed(node)) return;
    if (ts.isJsxText(node)) {
      if (/\p{L}/u.test(node.text)) report(node, 'jsx-text', node.text);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const text = node.text;
      const compared = ts.isCaseClause(node.parent) || (ts.isBinaryExpression(node.parent) && /^[!=]==?$/.test(node.parent.operatorToken.getText(sf)));
      if (/\p{L}/u.test(text) && !CATALOGUE_KEY.test(text) && !compared && !exempt(node)) {
        // A template's parts take the context of the whole template (`title={`Cliente: ${name}`}`).
        const whole = ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) ? node.parent.parent ?? node.parent : node;
        const target = ts.isTemplateSpan(whole) ? whole.parent : whole;
        const parent = target.parent;
        const attribute = ts.isJsxAttribute(parent) ? parent : ts.isJsxExpression(parent) && ts.isJsxAttribute(parent.parent) ? parent.parent : undefined;
        if (attribute) {
          const name = attribute.name.getText(sf);
          if (!TECHNICAL_ATTRIBUTES.has(name) && (name === 'data-label' || !/^data-|ClassName$|Id$|Prefix$/.test(name))) report(node, 'jsx-attribute', `${name}="${text}"`);
        } else if (ts.isJsxExpression(parent) && (ts.isJsxElement(parent.parent) || ts.isJsxFragment(parent.parent))) {
          report(node, 'jsx-text', text);
        } else if (ts.isPropertyAssignment(parent) && parent.initializer === target && USER_FACING_PROPERTIES.has(parent.name.getText(sf))) {
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

