/**
 * A Laravel-style page of `items`. `per_page` is a string as in the platform's sample; an empty
 * page (limit 0, or past the end) has `from` and `to` null.
 */
export function paginate<T>(items: readonly T[], limit: number, page: number) {
  const start = (page - 1) * limit;
  const data = items.slice(start, start + limit);
  return {
    data,
    meta: {
      current_page: page,
      from: data.length > 0 ? start + 1 : null,
      last_page: limit > 0 ? Math.max(1, Math.ceil(items.length / limit)) : 1,
      per_page: String(limit),
      to: data.length > 0 ? start + data.length : null,
      total: items.length,
    },
  };
}
