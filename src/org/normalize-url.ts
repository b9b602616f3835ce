/** Comparable form of a clone URL: host lowercased, no scheme, user, `.git` or trailing slash. */
export function normalizeUrl(url: string): string {
  let u = url.trim();
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/\/)(.+)$/.exec(u);
  if (scp) u = `${scp[1]}/${scp[2]}`;
  else u = u.replace(/^[a-z+]+:\/\//i, '').replace(/^[^@/]*@/, '');
  const slash = u.indexOf('/');
  const host = slash < 0 ? u : u.slice(0, slash);
  const rest = slash < 0 ? '' : u.slice(slash);
  return `${host.toLowerCase()}${rest}`.replace(/\/+$/, '').replace(/\.git$/, '');
}
