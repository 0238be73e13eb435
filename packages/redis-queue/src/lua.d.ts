declare module '*.lua' {
  const script: string;
  export default script;
}
