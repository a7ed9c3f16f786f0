export default {
  title: 'Effect gallery',
  description:
    'Every shipped effect file (effects/*.json) as a picture with its description; each opens in the effect editor.',
};
