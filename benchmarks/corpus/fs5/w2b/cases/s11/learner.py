import torch
import torch.nn.functional as F

from network import SiNet


class SPrompts:
    def __init__(self, args):
        self.args = args
        self._network = SiNet(args["num_tasks"], args["classes_per_task"])
        self._cur_task = -1
        self._known_classes = 0

    def _freeze_for_task(self):
        for name, param in self._network.named_parameters():
            param.requires_grad_(False)
            if "prompt_pool" + "." + str(self._network.numtask - 1) in name:
                param.requires_grad_(True)
            if "classifier_pool" + "." + str(self._network.numtask - 1) in name:
                param.requires_grad_(True)

    def incremental_train(self, task_data):
        self._cur_task += 1
        self._network.update_fc()
        self._freeze_for_task()
        optimizer = torch.optim.SGD(self._network.parameters(), lr=self.args["lrate"],
                                    momentum=0.9, weight_decay=self.args["weight_decay"])
        scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=self.args["epochs"])
        self._train(task_data, optimizer, scheduler)
        self._known_classes += self.args["classes_per_task"]

    def _train(self, task_data, optimizer, scheduler):
        self._network.train()
        for epoch in range(self.args["epochs"]):
            losses = 0.0
            for inputs, targets in task_data:
                targets = targets - self._known_classes
                logits = self._network(inputs)
                loss = F.cross_entropy(logits, targets)
                optimizer.zero_grad(set_to_none=False)
                loss.backward()
                optimizer.step()
                losses += loss.item()
            scheduler.step()
            print(f"Task {self._cur_task}, Epoch {epoch + 1}/{self.args['epochs']} => Loss {losses / len(task_data):.3f}")
