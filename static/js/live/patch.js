// JSON Patch (RFC 6902) as the server's `patch` messages use it (game/live/patches.py: only `add`,
// `remove` and `replace`): applyPatch(doc, ops) returns a new document and leaves `doc` as it was,
// or throws on any operation it cannot apply exactly (the client then asks for the whole state).

function tokens(path) {
  if (path === "") return [];
  if (typeof path !== "string" || path[0] !== "/") throw new Error(`bad path ${path}`);
  return path.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function index(list, token, forAdd) {
  if (forAdd && token === "-") return list.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`bad index ${token}`);
  const i = Number(token);
  if (i > list.length || (!forAdd && i === list.length)) throw new Error(`index ${i} out of range`);
  return i;
}

export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw new Error("ops must be a list");
  let root = structuredClone(doc);
  for (const op of ops) {
    const path = tokens(op.path);
    if (!["add", "remove", "replace"].includes(op.op)) throw new Error(`unknown op ${op.op}`);
    if ((op.op === "add" || op.op === "replace") && !("value" in op)) throw new Error("no value");
    if (path.length === 0) {
      if (op.op === "remove") throw new Error("cannot remove the document");
      root = structuredClone(op.value);
      continue;
    }
    let parent = root;
    for (const t of path.slice(0, -1)) {
      if (Array.isArray(parent)) parent = parent[index(parent, t, false)];
      else if (parent !== null && typeof parent === "object" && Object.hasOwn(parent, t)) parent = parent[t];
      else throw new Error(`no ${t} in ${op.path}`);
    }
    const last = path[path.length - 1];
    if (Array.isArray(parent)) {
      const i = index(parent, last, op.op === "add");
      if (op.op === "add") parent.splice(i, 0, op.value);
      else if (op.op === "remove") parent.splice(i, 1);
      else parent[i] = op.value;
    } else if (parent !== null && typeof parent === "object") {
      if (op.op !== "add" && !Object.hasOwn(parent, last)) throw new Error(`no ${last} in ${op.path}`);
      if (op.op === "remove") delete parent[last];
      else parent[last] = op.value;
    } else {
      throw new Error(`${op.path} is not in an object or a list`);
    }
  }
  return root;
}
