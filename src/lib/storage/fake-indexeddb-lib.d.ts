// fake-indexeddb exports its classes by path without types for them; tests use two of them.
declare module "fake-indexeddb/lib/FDBObjectStore" {
  const FDBObjectStore: { prototype: object };
  export default FDBObjectStore;
}
declare module "fake-indexeddb/lib/FDBOpenDBRequest" {
  const FDBOpenDBRequest: new () => IDBOpenDBRequest;
  export default FDBOpenDBRequest;
}
