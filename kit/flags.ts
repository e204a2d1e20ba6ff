/**
 * A command's flags, each declared once: the parser's options, the command's `--help`, its
 * environment variables and the flag tables of docs/cli.md are all made from the declarations (the
 * run command's in run-flags.ts, the subcommands' beside them in cli/); a test keeps the tables
 * current.
 */
export interface FlagDecl {
  readonly name: string;
  /** The value's placeholder in the help (none: a switch). */
  readonly value?: string;
  readonly multiple?: true;
  readonly short?: string;
  /** Variables that set it when the flag is absent (the first is the one the help names). */
  readonly env?: readonly string[];
  /** The variable holds several values, comma-separated. */
  readonly envList?: true;
  /** A heading the help groups flags under (none: one list). */
  readonly group?: string;
  /** The help text: one entry per line. */
  readonly help: readonly string[];
}

/** The parseArgs option of one declaration, with its literal types (so parsed values are typed). */
type OptionOf<F extends FlagDecl> = { type: F extends { value: string } ? 'string' : 'boolean' } & (F extends {
  multiple: true;
}
  ? { multiple: true }
  : unknown) &
  (F extends { short: infer S extends string } ? { short: S } : unknown);

export type OptionsOf<Fs extends readonly FlagDecl[]> = { [F in Fs[number] as F['name']]: OptionOf<F> };

/**
 * A flag's value, else the first of its declared variables that is set (empty counts as unset):
 * the one rule of "a flag wins over its variable", with the variables named where the flag is.
 */
export function flagOrEnv(
  flags: readonly FlagDecl[],
  name: string,
  given: unknown,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (typeof given === 'string' && given !== '') return given;
  const decl = flags.find((f) => f.name === name);
  if (!decl) throw new Error(`no flag --${name} is declared`);
  return decl.env?.map((variable) => env[variable]).find((value) => value !== undefined && value !== '');
}

/** The options of node's parseArgs for these flags. */
export function parseOptions<const Fs extends readonly FlagDecl[]>(flags: Fs): OptionsOf<Fs> {
  return Object.fromEntries(
    flags.map((f) => [
      f.name,
      {
        type: f.value ? 'string' : 'boolean',
        ...(f.multiple ? { multiple: true } : {}),
        ...(f.short ? { short: f.short } : {}),
      },
    ]),
  ) as OptionsOf<Fs>;
}

const headOf = (f: FlagDecl) => `  ${f.short ? `-${f.short}, ` : ''}--${f.name}${f.value ? ` ${f.value}` : ''}`;

/** The flags' part of --help: a heading per group, the texts in one column (variables are listed apart). */
export function flagsHelp(flags: readonly FlagDecl[]): string {
  const column = Math.max(...flags.map((f) => headOf(f).length)) + 2;
  const groups = [...new Set(flags.map((f) => f.group))];
  return groups
    .map((group) => {
      const lines = flags
        .filter((f) => f.group === group)
        .flatMap((f) => {
          return f.help.map((text, i) => `${(i === 0 ? headOf(f) : '').padEnd(column)}${text}`.trimEnd());
        });
      return group ? `${group}:\n${lines.join('\n')}` : lines.join('\n');
    })
    .join('\n\n');
}

/** The environment part of --help: each variable with its flag. */
export function environmentHelp(flags: readonly FlagDecl[]): string {
  return flags
    .flatMap((f) =>
      (f.env ?? []).map((name) => `  ${`${name} `.padEnd(25)}--${f.name}${f.envList ? ' (comma-separated)' : ''}`),
    )
    .join('\n');
}

/** docs/cli.md's table of the flags (a variable column when any flag has one). */
export function flagsTable(flags: readonly FlagDecl[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const withEnv = flags.some((f) => f.env);
  return [
    withEnv ? '| Flag | Variable | What it does |' : '| Flag | What it does |',
    withEnv ? '|---|---|---|' : '|---|---|',
    ...flags.map((f) => {
      const flag = cell(`\`${headOf(f).trim()}\``);
      const env = (f.env ?? []).map((name) => `\`${name}\``).join(', ');
      return `| ${flag} |${withEnv ? ` ${env} |` : ''} ${cell(f.help.join(' '))} |`;
    }),
  ].join('\n');
}
