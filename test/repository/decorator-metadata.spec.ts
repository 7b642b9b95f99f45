import 'reflect-metadata';
function D(): ClassDecorator {
  return () => {};
}
class Dep {}
@D()
class A {
  constructor(readonly d: Dep) {}
}
it('emits decorator metadata', () => {
  expect(Reflect.getMetadata('design:paramtypes', A)).toEqual([Dep]);
});
