import numpy as np
import torch
import torch.nn as nn

import compat  # noqa: F401
import torchvision

from estimator import PyTorchClassifier
from shadow import ShadowModels

torch.manual_seed(0)
np.random.seed(0)

NUM_CLASSES = 4


def make_data(n):
    x = np.random.randn(n, 3, 16, 16).astype(np.float32)
    y = np.random.randint(0, NUM_CLASSES, size=n).astype(np.int64)
    return x, y


model = torchvision.models.resnet18(num_classes=NUM_CLASSES)
model.maxpool = nn.Identity()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
target = PyTorchClassifier(model=model, loss=nn.CrossEntropyLoss(), optimizer=optimizer,
                           input_shape=(3, 16, 16), nb_classes=NUM_CLASSES)

x_target, y_target = make_data(16)
target.fit(x_target, y_target, batch_size=16, nb_epochs=1)

x_shadow, y_shadow = make_data(32)
shadow_models = ShadowModels(target, num_shadow_models=2, random_state=1)
results = shadow_models.generate_shadow_dataset(x_shadow, y_shadow, nb_epochs=1)

for i, (member_preds, nonmember_preds) in enumerate(results):
    print(f"shadow {i}: member conf {member_preds.max(1).mean():.3f} "
          f"non-member conf {nonmember_preds.max(1).mean():.3f}")
