import numpy as np


class ShadowModels:
    def __init__(self, shadow_model_template, num_shadow_models=2, random_state=None):
        self._rng = np.random.default_rng(random_state)
        self._shadow_models = [shadow_model_template.clone_for_refitting()
                               for _ in range(num_shadow_models)]

    def generate_shadow_dataset(self, x, y, member_ratio=0.5, nb_epochs=2):
        n = x.shape[0] // len(self._shadow_models)
        perm = self._rng.permutation(x.shape[0])
        results = []
        for i, model in enumerate(self._shadow_models):
            part = perm[i * n:(i + 1) * n]
            cut = int(len(part) * member_ratio)
            members, nonmembers = part[:cut], part[cut:]
            model.fit(x[members], y[members], nb_epochs=nb_epochs)
            results.append((model.predict(x[members]), model.predict(x[nonmembers])))
        return results

    def get_shadow_models(self):
        return self._shadow_models
