import { MAX_VALUE_LENGTH } from './claim-mapper.js';

/** Patterns are written by admins, yet bounded: a long pattern is where backtracking hurts. */
export const MAX_PATTERN_LENGTH = 200;

/**
 * A bound on the steps V8's backtracking engine may take on one value: the ways a pattern can split a
 * 1000-character value among its unbounded quantifiers (n^u/u!, the start position counting as one when
 * there is no leading `^`), times the choices of its bounded quantifiers and alternations, times its size.
 * Two unbounded quantifiers in a short anchored pattern (`^([^,]+), (.+)$`) fit; three, or two without
 * `^`, or a run of optional parts (`a?a?a?…`) do not. Measured: the worst accepted shapes take about
 * 10-40 ms here (test and replace both run), against seconds and more for what is refused.
 */
export const MAX_MATCH_STEPS = 5_000_000;

interface Group {
  /** Somewhere inside: a quantifier with a choice (min ≠ max) or an alternation. */
  choices: boolean;
  /** Alternatives at this group's own level. */
  branches: number;
}

type Atom = { kind: 'char' } | { kind: 'group'; group: Group } | undefined;

/**
 * Why a regex mapper's pattern is refused, or undefined when V8's backtracking on it is bounded by the
 * lengths (the value is at most 1000 characters). JavaScript syntax in unicode mode, minus what can
 * backtrack super-linearly: backreferences and lookaround; a repeated group (`(…)+`, `(…){2,}`) holding a
 * quantifier with a choice or an alternation (`(a+)+`, `(a|aa)*`: exponential); and more choices in all
 * than MAX_MATCH_STEPS allows (`.*.*.*`: polynomial). Conservative: some harmless patterns are refused too, and
 * a character class (`[ab]+`) replaces a repeated alternation.
 */
export function regexPatternProblem(pattern: string): string | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return `pattern is longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'pattern is not a valid regular expression';
  }
  return new PatternScan(pattern).problem();
}

/** One pass over a pattern already known to be valid in unicode mode (so its syntax is strict). */
class PatternScan {
  private i = 0;
  /** Product of the choices of bounded quantifiers (`?`, `{1,3}`) and alternations. */
  private bounded = 1;
  /** Quantifiers with no upper bound (`*`, `+`, `{2,}`). */
  private unbounded = 0;
  /** Atoms, groups included: what one try of the pattern walks through. */
  private size = 0;
  private readonly stack: Group[] = [{ choices: false, branches: 1 }];
  private last: Atom;

  constructor(private readonly p: string) {}

  problem(): string | undefined {
    while (this.i < this.p.length) {
      const refused = this.step();
      if (refused) return refused;
    }
    const top = this.stack[0];
    this.bounded *= top.branches;
    if (!(this.p.startsWith('^') && top.branches === 1)) this.unbounded += 1;
    let splits = 1;
    for (let k = 1; k <= this.unbounded; k++) splits = (splits * (MAX_VALUE_LENGTH + 1)) / k;
    if (splits * this.bounded * Math.max(1, this.size) > MAX_MATCH_STEPS)
      return 'pattern has too many ways to match (more than two unbounded quantifiers, two without a leading ^, or many optional parts): it could backtrack for seconds';
    return undefined;
  }

  private step(): string | undefined {
    const c = this.p[this.i++];
    switch (c) {
      case '\\':
        return this.escape();
      case '[':
        this.skipClass();
        return this.atom();
      case '(':
        return this.openGroup();
      case ')': {
        const group = this.stack.pop()!;
        this.bounded *= group.branches;
        this.size += 1;
        if (group.choices) this.current.choices = true;
        this.last = { kind: 'group', group };
        return undefined;
      }
      case '|':
        this.current.branches += 1;
        this.current.choices = true;
        this.last = undefined;
        return undefined;
      case '*':
      case '+':
      case '?':
      case '{':
        return this.quantifier(c);
      case '^':
      case '$':
        this.last = undefined;
        return undefined;
      default:
        return this.atom();
    }
  }

  private atom(): undefined {
    this.last = { kind: 'char' };
    this.size += 1;
    return undefined;
  }

  private get current(): Group {
    return this.stack[this.stack.length - 1];
  }

  private escape(): string | undefined {
    const c = this.p[this.i++];
    if (c >= '1' && c <= '9') return 'pattern must not use backreferences (\\1): they can backtrack exponentially';
    if (c === 'k') return 'pattern must not use backreferences (\\k<name>): they can backtrack exponentially';
    if (c === 'b' || c === 'B') {
      this.last = undefined;
      return undefined;
    }
    if ((c === 'p' || c === 'P' || c === 'u') && this.p[this.i] === '{') this.i = this.p.indexOf('}', this.i) + 1;
    else if (c === 'u') this.i += 4;
    else if (c === 'x') this.i += 2;
    else if (c === 'c') this.i += 1;
    return this.atom();
  }

  /** In unicode mode a class ends at the first unescaped `]` (no nested classes without the v flag). */
  private skipClass(): void {
    while (this.p[this.i] !== ']') this.i += this.p[this.i] === '\\' ? 2 : 1;
    this.i += 1;
  }

  private openGroup(): string | undefined {
    if (this.p[this.i] === '?') {
      const kind = this.p.slice(this.i + 1, this.i + 3);
      if (kind[0] === '=' || kind[0] === '!' || kind === '<=' || kind === '<!') return 'pattern must not use lookahead or lookbehind';
      this.i = kind[0] === '<' ? this.p.indexOf('>', this.i) + 1 : this.i + 2;
    }
    this.stack.push({ choices: false, branches: 1 });
    this.last = undefined;
    return undefined;
  }

  private quantifier(c: string): string | undefined {
    let min: number;
    let max: number;
    if (c === '{') {
      const end = this.p.indexOf('}', this.i);
      const [low, high] = this.p.slice(this.i, end).split(',');
      this.i = end + 1;
      min = Number(low);
      max = high === undefined ? min : high === '' ? Infinity : Number(high);
      if (Math.max(min, max === Infinity ? 0 : max) > MAX_VALUE_LENGTH)
        return `pattern repeats more than ${MAX_VALUE_LENGTH} times (a value is at most ${MAX_VALUE_LENGTH} characters)`;
    } else {
      min = c === '+' ? 1 : 0;
      max = c === '?' ? 1 : Infinity;
    }
    if (this.p[this.i] === '?') this.i += 1;
    const atom = this.last;
    this.last = undefined;
    if (atom?.kind === 'group' && max > 1 && atom.group.choices)
      return 'pattern repeats a group that holds a quantifier or an alternation (like (a+)+ or (a|b)*): it can backtrack exponentially; use a character class such as [ab]+';
    if (min !== max) this.current.choices = true;
    if (max === Infinity) this.unbounded += 1;
    else this.bounded *= Math.max(1, max - min + 1);
    return undefined;
  }
}
