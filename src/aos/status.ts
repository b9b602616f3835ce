import {
  type AosSubsystem,
  FINDING_SEVERITIES,
  type Finding,
  type SubsystemView,
  summarize,
} from './subsystem.js';

export interface AosStatus {
  generated_at: string;
  subsystems: Record<string, SubsystemView>;
}

/** `aos status`: one view over every subsystem (a pure read). */
export async function aosStatus(subsystems: readonly AosSubsystem[], now: Date): Promise<AosStatus> {
  const views = await summarize(subsystems);
  return {
    generated_at: now.toISOString(),
    subsystems: Object.fromEntries(views.map(({ subsystem, view }) => [subsystem.name, view])),
  };
}

export interface AosDoctor {
  generated_at: string;
  /** `ok` without warnings or errors, else the worst severity found. */
  health: 'ok' | 'warning' | 'error';
  findings: Finding[];
  /** Each finding's command once, most severe first. */
  suggested_commands: string[];
}

const rank = (s: Finding['severity']) => FINDING_SEVERITIES.indexOf(s);

/**
 * `aos doctor`: what looks wrong across the subsystems, with the command that deals with each. It only reads;
 * `aos recover` is the command that changes things, so a doctor run is always safe (and a GET over HTTP).
 */
export async function aosDoctor(subsystems: readonly AosSubsystem[], now: Date): Promise<AosDoctor> {
  const findings: Finding[] = [];
  for (const { subsystem, view } of await summarize(subsystems)) {
    if (!view.available) {
      findings.push({
        severity: 'error',
        code: 'subsystem_unavailable',
        subsystem: subsystem.name,
        message: `${subsystem.name} could not be read: ${view.error}`,
      });
      continue;
    }
    if (!subsystem.findings) continue;
    try {
      findings.push(...(await subsystem.findings(view.summary)));
    } catch (err) {
      findings.push({
        severity: 'error',
        code: 'subsystem_unavailable',
        subsystem: subsystem.name,
        message: `${subsystem.name} could not be checked: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
  }
  findings.sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) ||
      a.subsystem.localeCompare(b.subsystem) ||
      a.code.localeCompare(b.code) ||
      (a.subject ?? '').localeCompare(b.subject ?? ''),
  );
  const worst = findings[0]?.severity;
  return {
    generated_at: now.toISOString(),
    health: worst === 'error' ? 'error' : worst === 'warning' ? 'warning' : 'ok',
    findings,
    suggested_commands: [...new Set(findings.flatMap((f) => (f.command ? [f.command] : [])))],
  };
}
