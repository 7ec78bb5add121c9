/**
 * Labels that name each row of one run once. Two `fromSources` batches with the same tag (or
 * the same hand-picked label) would otherwise both show `py#0`, and a witness naming `py#0`
 * could not say which candidate it means. The first holder keeps its label; each later repeat
 * gets `~2`, `~3`, ... (skipping any suffix another candidate already uses).
 */
export const uniqueLabels = (labels: readonly string[]): string[] => {
  const taken = new Set(labels);
  const seen = new Set<string>();
  return labels.map((label) => {
    if (!seen.has(label)) {
      seen.add(label);
      return label;
    }
    let k = 2;
    while (taken.has(`${label}~${k}`)) k++;
    const unique = `${label}~${k}`;
    taken.add(unique);
    seen.add(unique);
    return unique;
  });
};
