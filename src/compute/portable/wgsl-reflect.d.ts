// wgsl_reflect's "main" is a CommonJS file in a "type": "module" package, which Node refuses; its ES
// module build has no types of its own. Both names give the same API.
declare module 'wgsl_reflect/wgsl_reflect.module.js' {
  export { WgslParser, WgslExec, WgslReflect } from 'wgsl_reflect';
}
