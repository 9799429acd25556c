// The content cache moved to emit/, the base layer every stage may use (validate caches the manifest
// validator in it); its importers in render/ and later stages still find it here.
export * from '../emit/content-cache.js'
