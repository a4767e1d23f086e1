/**
 * `membench completion bash|zsh`: a completion script written from the
 * program's own definition (commands, subcommands, options, the benchmark ids
 * of a `<bench>` argument), so it never falls behind the CLI. Files complete
 * wherever an argument or an option value is expected.
 */
import type { Command, Option } from "commander";
import { BENCHMARK_IDS } from "../benchmarks/ids.ts";

export const SHELLS = ["bash", "zsh"] as const;
export type Shell = (typeof SHELLS)[number];

interface Node {
  /** `run`, `data inspect`. */
  path: string[];
  command: Command;
}

function visible(cmd: Command): Command[] {
  return cmd.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden && c.name() !== "help");
}

function walk(cmd: Command, path: string[] = []): Node[] {
  return visible(cmd).flatMap((c) => [{ path: [...path, c.name()], command: c }, ...walk(c, [...path, c.name()])]);
}

function flagsOf(cmd: Command): string[] {
  return cmd.options
    .filter((o) => !o.hidden)
    .flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)))
    .concat("--help");
}

/** Whether the command's first argument is a benchmark id. */
const takesBench = (cmd: Command) =>
  (cmd as Command & { registeredArguments?: Array<{ name(): string }> }).registeredArguments?.[0]?.name() === "bench";

function bash(program: Command): string {
  const root = visible(program).map((c) => c.name());
  const cases = walk(program).map(({ path, command }) => {
    const words = [...visible(command).map((c) => c.name()), ...(takesBench(command) ? BENCHMARK_IDS : [])];
    return `    "${path.join(" ")}") opts="${flagsOf(command).join(" ")}"; words="${words.join(" ")}" ;;`;
  });
  return `# bash completion for membench. Load it with:
#   source <(membench completion bash)
# or save it: membench completion bash > ~/.local/share/bash-completion/completions/membench
_membench() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" i w opts="" words=""
  # The command path so far: the words before the cursor that are not options or values.
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    case "\${path:+$path }$w" in
${walk(program)
  .map(({ path }) => `      "${path.join(" ")}") path="${path.join(" ")}" ;;`)
  .join("\n")}
    esac
  done
  if [[ -z "$path" ]]; then
    opts="${flagsOf(program).join(" ")}"
    words="${root.join(" ")}"
  else
    case "$path" in
${cases.join("\n")}
    esac
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -W "$words" -- "$cur") $(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _membench membench
`;
}

/** Text safe inside a zsh `[...]` or `name:description` spec. */
const zshText = (text: string) =>
  text
    .replace(/[[\]:'`$\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 70);

function zshOption(o: Option): string[] {
  const help = zshText(o.description);
  const value = o.required || o.optional ? `:${zshText(o.flags.split(" ").slice(1).join(" ") || "value")}:_files` : "";
  return [o.long, o.short].filter((f): f is string => Boolean(f)).map((f) => `'${f}[${help}]${value}'`);
}

function zshFunction(name: string, cmd: Command): string {
  const subs = visible(cmd);
  const specs = cmd.options.filter((o) => !o.hidden).flatMap(zshOption);
  if (subs.length) {
    const described = subs.map((c) => `'${c.name()}:${zshText(c.description())}'`);
    return `${name}() {
  local line state
  local -a commands=(${described.join(" ")})
  _arguments -C ${specs.join(" ")} '1: :->command' '*:: :->args'
  case $state in
    command) _describe 'command' commands ;;
    args)
      case $line[1] in
${subs.map((c) => `        ${c.name()}) ${name}_${c.name().replace(/-/g, "_")} ;;`).join("\n")}
      esac ;;
  esac
}`;
  }
  const first = takesBench(cmd) ? `'1:benchmark:(${BENCHMARK_IDS.join(" ")})' ` : "";
  return `${name}() {
  _arguments ${specs.join(" ")} ${first}'*:file:_files'
}`;
}

function zsh(program: Command): string {
  const fns: string[] = [zshFunction("_membench", program)];
  for (const { path, command } of walk(program)) {
    fns.push(zshFunction(`_membench_${path.map((p) => p.replace(/-/g, "_")).join("_")}`, command));
  }
  return `#compdef membench
# zsh completion for membench. Load it with:
#   source <(membench completion zsh)
# or save it as _membench in a folder of $fpath.
${fns.join("\n\n")}

if [[ "$funcstack[1]" = "_membench" ]]; then _membench "$@"; else compdef _membench membench; fi
`;
}

export function completionScript(shell: Shell, program: Command): string {
  return shell === "bash" ? bash(program) : zsh(program);
}
