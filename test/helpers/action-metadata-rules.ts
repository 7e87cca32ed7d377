/**
 * GitHub's rules for an action's metadata file, as GitHub's "Metadata syntax reference" states them
 * (github/docs, content/actions/reference/workflows-and-actions/metadata-syntax.md, CC-BY-4.0):
 * required keys, the runtimes of JavaScript actions, the id pattern, and the branding colours and icons.
 */

/** `runs.using` values GitHub's runners accept for a JavaScript action today (node20 is removed from hosted runners on 2026-09-16). */
export const NODE_RUNTIMES = ['node20', 'node24'] as const;

/** "must start with a letter or `_` and contain only alphanumeric characters, `-`, or `_`" (inputs and outputs alike). */
export const ID_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;

export const BRANDING_COLORS = ['white', 'black', 'yellow', 'blue', 'green', 'orange', 'red', 'purple', 'gray-dark'] as const;

/** "Exhaustive list of all currently supported icons" (Feather v4.28.0 without brand and omitted icons). */
export const BRANDING_ICONS = new Set(`
activity airplay alert-circle alert-octagon alert-triangle align-center align-justify align-left align-right anchor
aperture archive arrow-down-circle arrow-down-left arrow-down-right arrow-down arrow-left-circle arrow-left
arrow-right-circle arrow-right arrow-up-circle arrow-up-left arrow-up-right arrow-up at-sign award bar-chart-2
bar-chart battery-charging battery bell-off bell bluetooth bold book-open book bookmark box briefcase calendar
camera-off camera cast check-circle check-square check chevron-down chevron-left chevron-right chevron-up
chevrons-down chevrons-left chevrons-right chevrons-up circle clipboard clock cloud-drizzle cloud-lightning
cloud-off cloud-rain cloud-snow cloud code command compass copy corner-down-left corner-down-right corner-left-down
corner-left-up corner-right-down corner-right-up corner-up-left corner-up-right cpu credit-card crop crosshair
database delete disc dollar-sign download-cloud download droplet edit-2 edit-3 edit external-link eye-off eye
fast-forward feather file-minus file-plus file-text file film filter flag folder-minus folder-plus folder gift
git-branch git-commit git-merge git-pull-request globe grid hard-drive hash headphones heart help-circle home
image inbox info italic layers layout life-buoy link-2 link list loader lock log-in log-out mail map-pin map
maximize-2 maximize menu message-circle message-square mic-off mic minimize-2 minimize minus-circle minus-square
minus monitor moon more-horizontal more-vertical move music navigation-2 navigation octagon package paperclip
pause-circle pause percent phone-call phone-forwarded phone-incoming phone-missed phone-off phone-outgoing phone
pie-chart play-circle play plus-circle plus-square plus pocket power printer radio refresh-ccw refresh-cw repeat
rewind rotate-ccw rotate-cw rss save scissors search send server settings share-2 share shield-off shield
shopping-bag shopping-cart shuffle sidebar skip-back skip-forward slash sliders smartphone speaker square star
stop-circle sun sunrise sunset table tablet tag target terminal thermometer thumbs-down thumbs-up toggle-left
toggle-right trash-2 trash trending-down trending-up triangle truck tv type umbrella underline unlock upload-cloud
upload user-check user-minus user-plus user-x user users video-off video voicemail volume-1 volume-2 volume-x
volume watch wifi-off wifi wind x-circle x-square x zap-off zap zoom-in zoom-out
`.trim().split(/\s+/));

interface Entry { description?: unknown; required?: unknown; default?: unknown }
export interface ActionMetadata {
  name?: unknown;
  description?: unknown;
  runs?: { using?: unknown; main?: unknown; pre?: unknown; post?: unknown };
  inputs?: Record<string, Entry | null>;
  outputs?: Record<string, Entry | null>;
  branding?: { icon?: unknown; color?: unknown };
}

/** Every rule a JavaScript action's metadata breaks, as readable lines (empty: GitHub would load it). */
export function metadataProblems(meta: ActionMetadata, fileExists: (path: string) => boolean): string[] {
  const problems: string[] = [];
  const text = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (!text(meta.name)) problems.push('name is missing');
  if (!text(meta.description)) problems.push('description is missing');
  if (!meta.runs || typeof meta.runs !== 'object') problems.push('runs is missing');
  else {
    if (!(NODE_RUNTIMES as readonly unknown[]).includes(meta.runs.using)) problems.push(`runs.using ${String(meta.runs.using)} is not a JavaScript runtime (${NODE_RUNTIMES.join(', ')})`);
    for (const key of ['main', 'pre', 'post'] as const) {
      const file = meta.runs[key];
      if (key === 'main' && !text(file)) problems.push('runs.main is missing');
      else if (file !== undefined && (!text(file) || !fileExists(file as string))) problems.push(`runs.${key} ${String(file)} is not in the committed tree`);
    }
  }
  for (const kind of ['inputs', 'outputs'] as const) {
    for (const [id, entry] of Object.entries(meta[kind] ?? {})) {
      if (!ID_PATTERN.test(id)) problems.push(`${kind}.${id}: the id does not match ${ID_PATTERN}`);
      if (!entry || !text(entry.description)) problems.push(`${kind}.${id}: description is missing`);
      if (kind === 'inputs' && entry?.required !== undefined && typeof entry.required !== 'boolean') problems.push(`inputs.${id}: required must be a boolean`);
      if (kind === 'inputs' && entry?.default !== undefined && typeof entry.default !== 'string') problems.push(`inputs.${id}: default must be a string`);
    }
  }
  if (meta.branding) {
    if (!(BRANDING_COLORS as readonly unknown[]).includes(meta.branding.color)) problems.push(`branding.color ${String(meta.branding.color)} is not one of ${BRANDING_COLORS.join(', ')}`);
    if (typeof meta.branding.icon !== 'string' || !BRANDING_ICONS.has(meta.branding.icon)) problems.push(`branding.icon ${String(meta.branding.icon)} is not a supported icon`);
  }
  return problems;
}
