/** JSON Merge Patch (RFC 7396): accepted by PATCH, besides application/json. */
export const MERGE_PATCH = 'application/merge-patch+json'
