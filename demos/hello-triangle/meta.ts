export default {
  title: 'Hello triangle',
  description:
    'The smallest program: one device, one pipeline in the device’s shader language, one triangle.',
};
