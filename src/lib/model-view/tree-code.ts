// The code that builds the session tree and names its entries: most sessions never branch, so it is a
// chunk of its own, loaded the first time a tree, a title or a marker is asked for.
export { branchTitle, buildTree, entryTitle, leafOf } from "./session-tree.ts";
export { markerText } from "./entry-markers.ts";
